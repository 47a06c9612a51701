<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AddUserDialog</name>
    <message>
        <source>Add user</source>
        <translation>Benutzer hinzufügen</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>&amp;E-mail</source>
        <translation>&amp;E-Mail</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>&amp;Role</source>
        <translation>&amp;Rolle</translation>
    </message>
    <message>
        <source>&amp;Modules</source>
        <translation>&amp;Module</translation>
    </message>
    <message>
        <source>&amp;Password</source>
        <translation>&amp;Passwort</translation>
    </message>
</context>
<context>
    <name>AdminWorkspace</name>
    <message numerus="yes">
        <source>%n modules enabled</source>
        <translation>
            <numerusform>%n Modul aktiviert</numerusform>
            <numerusform>%n Module aktiviert</numerusform>
        </translation>
    </message>
    <message>
        <source>Tenant “{tenant}” · {modules}</source>
        <translation>Mandant „{tenant}“ · {modules}</translation>
    </message>
    <message>
        <source>Admin sections</source>
        <translation>Verwaltungsbereiche</translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation>&amp;Benutzer</translation>
    </message>
    <message>
        <source>&amp;Modules</source>
        <translation>&amp;Module</translation>
    </message>
    <message>
        <source>API &amp;keys</source>
        <translation>API-&amp;Schlüssel</translation>
    </message>
    <message>
        <source>We&amp;bhooks</source>
        <translation>&amp;Webhooks</translation>
    </message>
    <message>
        <source>Sc&amp;heduler</source>
        <translation>&amp;Zeitplaner</translation>
    </message>
    <message>
        <source>Audit &amp;log</source>
        <translation>&amp;Prüfprotokoll</translation>
    </message>
</context>
<context>
    <name>ApiKeysPanel</name>
    <message>
        <source>API keys are made on the platform, online, and this station works without one now (offline, or no platform URL in Settings). Create or revoke keys when it is connected.</source>
        <translation>API-Schlüssel werden online auf der Plattform erstellt, und diese Station arbeitet gerade ohne Plattform (offline oder keine Plattform-URL in den Einstellungen). Erstellen oder widerrufen Sie Schlüssel, wenn sie verbunden ist.</translation>
    </message>
    <message>
        <source>Where API keys are made</source>
        <translation>Wo API-Schlüssel erstellt werden</translation>
    </message>
    <message>
        <source>&amp;Revoke selected key</source>
        <translation>Ausgewählten Schlüssel &amp;widerrufen</translation>
    </message>
    <message>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Name des Schlüssels</translation>
    </message>
    <message>
        <source>e.g. ERP integration</source>
        <translation>z. B. ERP-Anbindung</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>live (pk_live_)</source>
        <translation>Produktiv (pk_live_)</translation>
    </message>
    <message>
        <source>test (pk_test_)</source>
        <translation>Test (pk_test_)</translation>
    </message>
    <message>
        <source>Key modules</source>
        <translation>Module des Schlüssels</translation>
    </message>
    <message>
        <source>E&amp;xpires</source>
        <translation>&amp;Läuft ab</translation>
    </message>
    <message>
        <source>Expires at</source>
        <translation>Läuft ab am</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>&amp;Environment</source>
        <translation>&amp;Umgebung</translation>
    </message>
    <message>
        <source>&amp;Modules</source>
        <translation>&amp;Module</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>&amp;Create key</source>
        <translation>Schlüssel &amp;erstellen</translation>
    </message>
    <message>
        <source>API key result</source>
        <translation>Ergebnis API-Schlüssel</translation>
    </message>
    <message>
        <source>Copy the key now: it is shown only once</source>
        <translation>Kopieren Sie den Schlüssel jetzt: Er wird nur einmal angezeigt</translation>
    </message>
    <message>
        <source>New API key value</source>
        <translation>Wert des neuen API-Schlüssels</translation>
    </message>
    <message>
        <source>Copy the API key</source>
        <translation>API-Schlüssel kopieren</translation>
    </message>
    <message>
        <source>&amp;Done</source>
        <translation>&amp;Fertig</translation>
    </message>
    <message>
        <source>API keys are made on the platform ({url}), online: the key works as soon as it is shown.</source>
        <translation>API-Schlüssel werden online auf der Plattform ({url}) erstellt: Der Schlüssel gilt, sobald er angezeigt wird.</translation>
    </message>
    <message>
        <source>Signing in to the platform to read its keys…</source>
        <translation>Anmeldung an der Plattform, um die Schlüssel zu lesen…</translation>
    </message>
    <message>
        <source>Creating the key on the platform…</source>
        <translation>Schlüssel wird auf der Plattform erstellt…</translation>
    </message>
    <message>
        <source>Key “{name}” created.</source>
        <translation>Schlüssel „{name}“ erstellt.</translation>
    </message>
    <message>
        <source>Key copied to the clipboard.</source>
        <translation>Schlüssel in die Zwischenablage kopiert.</translation>
    </message>
    <message>
        <source>Select a key in the list first.</source>
        <translation>Wählen Sie zuerst einen Schlüssel in der Liste aus.</translation>
    </message>
    <message>
        <source>Press again to revoke “{name}”</source>
        <translation>Erneut drücken, um „{name}“ zu widerrufen</translation>
    </message>
    <message>
        <source>Key “{name}” revoked.</source>
        <translation>Schlüssel „{name}“ widerrufen.</translation>
    </message>
</context>
<context>
    <name>AuditPanel</name>
    <message>
        <source>Where the audit log is read</source>
        <translation>Woher das Prüfprotokoll gelesen wird</translation>
    </message>
    <message>
        <source>Kind of change</source>
        <translation>Art der Änderung</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Ausgeführt von</translation>
    </message>
    <message>
        <source>Who: an e-mail or an id</source>
        <translation>Wer: E-Mail-Adresse oder ID</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>&amp;Filtern</translation>
    </message>
    <message>
        <source>K&amp;ind</source>
        <translation>&amp;Art</translation>
    </message>
    <message>
        <source>&amp;Who</source>
        <translation>&amp;Wer</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Wer</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>Audit log result</source>
        <translation>Ergebnis Prüfprotokoll</translation>
    </message>
    <message>
        <source>The platform&apos;s audit log ({url}): every station&apos;s and the web&apos;s changes, newest first (the {limit} newest that match).</source>
        <translation>Prüfprotokoll der Plattform ({url}): die Änderungen aller Stationen und des Webs, neueste zuerst (die {limit} neuesten Treffer).</translation>
    </message>
    <message>
        <source>This station&apos;s own audit log: it works without a platform now (offline, or no platform URL in Settings). Newest first, the {limit} newest that match.</source>
        <translation>Eigenes Prüfprotokoll dieser Station: Sie arbeitet gerade ohne Plattform (offline oder keine Plattform-URL in den Einstellungen). Neueste zuerst, die {limit} neuesten Treffer.</translation>
    </message>
    <message>
        <source>No audit entries match.</source>
        <translation>Keine Einträge im Prüfprotokoll passen.</translation>
    </message>
    <message>
        <source>No audit entries yet.</source>
        <translation>Noch keine Einträge im Prüfprotokoll.</translation>
    </message>
</context>
<context>
    <name>InviteUserDialog</name>
    <message>
        <source>Invite user</source>
        <translation>Benutzer einladen</translation>
    </message>
    <message>
        <source>Language of the mail</source>
        <translation>Sprache der E-Mail</translation>
    </message>
    <message>
        <source>&amp;Language of the mail</source>
        <translation>&amp;Sprache der E-Mail</translation>
    </message>
</context>
<context>
    <name>ModulesPanel</name>
    <message>
        <source>Modules enabled for this tenant. A person uses a module when the tenant has it and their own module list includes it; a module turned off and on again comes back as it was.</source>
        <translation>Für diesen Mandanten aktivierte Module. Eine Person nutzt ein Modul, wenn der Mandant es hat und ihre eigene Modulliste es enthält; ein aus- und wieder eingeschaltetes Modul kommt unverändert zurück.</translation>
    </message>
    <message>
        <source>Enabled modules</source>
        <translation>Aktivierte Module</translation>
    </message>
    <message>
        <source>Save &amp;modules</source>
        <translation>&amp;Module speichern</translation>
    </message>
    <message>
        <source>Modules result</source>
        <translation>Ergebnis Module</translation>
    </message>
    <message>
        <source>Keep at least one module enabled.</source>
        <translation>Lassen Sie mindestens ein Modul aktiviert.</translation>
    </message>
    <message numerus="yes">
        <source>Saved: %n modules enabled.</source>
        <translation>
            <numerusform>Gespeichert: %n Modul aktiviert.</numerusform>
            <numerusform>Gespeichert: %n Module aktiviert.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResetPasswordDialog</name>
    <message>
        <source>Reset the password of {name}</source>
        <translation>Passwort von {name} zurücksetzen</translation>
    </message>
    <message>
        <source>Password again</source>
        <translation>Passwort wiederholen</translation>
    </message>
    <message>
        <source>New &amp;password</source>
        <translation>Neues &amp;Passwort</translation>
    </message>
    <message>
        <source>&amp;Again</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>The two passwords differ: type the same one twice.</source>
        <translation>Die beiden Passwörter sind verschieden: Geben Sie zweimal dasselbe ein.</translation>
    </message>
</context>
<context>
    <name>SchedulerPanel</name>
    <message>
        <source>Whose scheduled jobs</source>
        <translation>Wessen geplante Aufgaben</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Every</source>
        <translation>Intervall</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>Letzter Lauf</translation>
    </message>
    <message>
        <source>Last result</source>
        <translation>Letztes Ergebnis</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>Nächster Lauf</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Scheduled jobs</source>
        <translation>Geplante Aufgaben</translation>
    </message>
    <message>
        <source>Scheduled jobs result</source>
        <translation>Ergebnis geplante Aufgaben</translation>
    </message>
    <message>
        <source>The platform&apos;s jobs ({url}): each runs once across its processes.</source>
        <translation>Aufgaben der Plattform ({url}): Jede läuft einmal über alle ihre Prozesse.</translation>
    </message>
    <message>
        <source>This station&apos;s own jobs (no platform is linked).</source>
        <translation>Eigene Aufgaben dieser Station (keine Plattform verbunden).</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>noch nicht gelaufen</translation>
    </message>
</context>
<context>
    <name>UsersPanel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>Module</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Selected user</source>
        <translation>Ausgewählter Benutzer</translation>
    </message>
    <message>
        <source>Select a user in the list.</source>
        <translation>Wählen Sie einen Benutzer in der Liste aus.</translation>
    </message>
    <message>
        <source>&amp;Disabled</source>
        <translation>&amp;Deaktiviert</translation>
    </message>
    <message>
        <source>Modules of the selected user</source>
        <translation>Module des ausgewählten Benutzers</translation>
    </message>
    <message>
        <source>&amp;Save user</source>
        <translation>Benutzer &amp;speichern</translation>
    </message>
    <message>
        <source>User result</source>
        <translation>Ergebnis Benutzer</translation>
    </message>
    <message>
        <source>&amp;Add user…</source>
        <translation>Benutzer &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>Reset &amp;password…</source>
        <translation>&amp;Passwort zurücksetzen…</translation>
    </message>
    <message>
        <source>&amp;Invite user…</source>
        <translation>Benutzer &amp;einladen…</translation>
    </message>
    <message>
        <source>Send in&amp;vitation again</source>
        <translation>Einladung er&amp;neut senden</translation>
    </message>
    <message>
        <source>Invitation sent again to {email}.</source>
        <translation>Einladung erneut an {email} gesendet.</translation>
    </message>
    <message>
        <source>Revoke invi&amp;tation</source>
        <translation>Einladung &amp;zurückziehen</translation>
    </message>
    <message>
        <source>Invitation of {email} revoked.</source>
        <translation>Einladung von {email} zurückgezogen.</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>Added {email}.</source>
        <translation>{email} hinzugefügt.</translation>
    </message>
    <message>
        <source>Modules of the new user</source>
        <translation>Module des neuen Benutzers</translation>
    </message>
    <message>
        <source>Invitation mailed to {email}.</source>
        <translation>Einladung an {email} gesendet.</translation>
    </message>
    <message>
        <source>Select a user first.</source>
        <translation>Wählen Sie zuerst einen Benutzer aus.</translation>
    </message>
    <message>
        <source>New password set for {email}.</source>
        <translation>Neues Passwort für {email} gesetzt.</translation>
    </message>
    <message>
        <source>Saved {email}.</source>
        <translation>{email} gespeichert.</translation>
    </message>
</context>
<context>
    <name>WebhooksPanel</name>
    <message>
        <source>Webhook endpoints live on the platform, which delivers the events: connect this station to a platform (Settings) to see them.</source>
        <translation>Webhook-Endpunkte liegen auf der Plattform, die die Ereignisse zustellt: Verbinden Sie diese Station mit einer Plattform (Einstellungen), um sie zu sehen.</translation>
    </message>
    <message>
        <source>Where webhook endpoints live</source>
        <translation>Wo Webhook-Endpunkte liegen</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Event types</source>
        <translation>Ereignistypen</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Disabled since</source>
        <translation>Deaktiviert seit</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Webhook endpoints</source>
        <translation>Webhook-Endpunkte</translation>
    </message>
    <message>
        <source>Webhook endpoint result</source>
        <translation>Ergebnis Webhook-Endpunkte</translation>
    </message>
    <message>
        <source>&amp;Activate selected endpoint</source>
        <translation>Ausgewählten Endpunkt &amp;aktivieren</translation>
    </message>
    <message>
        <source>Endpoints on the platform ({url}). One whose every delivery failed for the tenant&apos;s set time (5 days by default) is disabled; fix it, then activate it again.</source>
        <translation>Endpunkte auf der Plattform ({url}). Ein Endpunkt, dessen Zustellungen alle über die festgelegte Zeit des Mandanten (standardmäßig 5 Tage) fehlschlagen, wird deaktiviert; beheben Sie den Fehler und aktivieren Sie ihn dann wieder.</translation>
    </message>
    <message>
        <source>Select an endpoint in the list first.</source>
        <translation>Wählen Sie zuerst einen Endpunkt in der Liste aus.</translation>
    </message>
    <message>
        <source>That endpoint is active already.</source>
        <translation>Dieser Endpunkt ist bereits aktiv.</translation>
    </message>
    <message>
        <source>Endpoint {url} is active again.</source>
        <translation>Endpunkt {url} ist wieder aktiv.</translation>
    </message>
</context>
<context>
    <name>admin</name>
    <message>
        <source>once</source>
        <translation>einmal</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>Invitations are mailed by the platform: link this station first.</source>
        <translation>Einladungen verschickt die Plattform: Verbinden Sie diese Station zuerst mit einer Plattform.</translation>
    </message>
</context>
</TS>
