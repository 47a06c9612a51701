<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Workspaces</name>
    <message>
        <source>Admin</source>
        <translation>Verwaltung</translation>
    </message>
    <message>
        <source>Dashboards</source>
        <translation>Dashboards</translation>
    </message>
    <message>
        <source>Helpdesk</source>
        <translation>Helpdesk</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <source>QR designer</source>
        <translation>QR-Designer</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation>Prüfwarteschlange</translation>
    </message>
    <message>
        <source>Shop floor</source>
        <translation>Fertigung</translation>
    </message>
    <message>
        <source>Stock count</source>
        <translation>Inventur</translation>
    </message>
    <message>
        <source>Trade-in inspection</source>
        <translation>Ankaufsprüfung</translation>
    </message>
    <message>
        <source>Warehouse scanning</source>
        <translation>Lager-Scannen</translation>
    </message>
</context>
<context>
    <name>wording</name>
    <message>
        <source>That scan</source>
        <translation>Dieser Scan</translation>
    </message>
    <message>
        <source>Scan the barcode again.</source>
        <translation>Scannen Sie den Barcode erneut.</translation>
    </message>
    <message>
        <source>The box size</source>
        <translation>Die Kartongröße</translation>
    </message>
    <message>
        <source>Pick one of the boxes.</source>
        <translation>Wählen Sie einen der Kartons.</translation>
    </message>
    <message>
        <source>The e-mail address</source>
        <translation>Die E-Mail-Adresse</translation>
    </message>
    <message>
        <source>Check it and type it again.</source>
        <translation>Prüfen Sie sie und geben Sie sie erneut ein.</translation>
    </message>
    <message>
        <source>The password</source>
        <translation>Das Passwort</translation>
    </message>
    <message>
        <source>Type it again.</source>
        <translation>Geben Sie es erneut ein.</translation>
    </message>
    <message>
        <source>The name</source>
        <translation>Der Name</translation>
    </message>
    <message>
        <source>Shorten it and try again.</source>
        <translation>Kürzen Sie ihn und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The subject</source>
        <translation>Der Betreff</translation>
    </message>
    <message>
        <source>The message</source>
        <translation>Die Nachricht</translation>
    </message>
    <message>
        <source>The description</source>
        <translation>Die Beschreibung</translation>
    </message>
    <message>
        <source>The reason</source>
        <translation>Der Grund</translation>
    </message>
    <message>
        <source>The quantity</source>
        <translation>Die Menge</translation>
    </message>
    <message>
        <source>Type a smaller number.</source>
        <translation>Geben Sie eine kleinere Zahl ein.</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>Module</translation>
    </message>
    <message>
        <source>Choose at least one.</source>
        <translation>Wählen Sie mindestens eines.</translation>
    </message>
    <message>
        <source>Check it and try again.</source>
        <translation>Prüfen Sie die Angabe und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Someone or something changed it meanwhile: look at it again before you go on.</source>
        <translation>Jemand oder etwas hat es inzwischen geändert: Sehen Sie es sich erneut an, bevor Sie weitermachen.</translation>
    </message>
    <message>
        <source>Ask an administrator if you need to do this.</source>
        <translation>Wenden Sie sich an einen Administrator, wenn Sie dies tun müssen.</translation>
    </message>
    <message>
        <source>Sign in again.</source>
        <translation>Melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>Ask the account owner to reactivate the tenant.</source>
        <translation>Bitten Sie den Kontoinhaber, den Mandanten wieder zu aktivieren.</translation>
    </message>
    <message>
        <source>Choose a smaller file.</source>
        <translation>Wählen Sie eine kleinere Datei.</translation>
    </message>
    <message>
        <source>Wait a moment and try again.</source>
        <translation>Warten Sie einen Moment und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Correct it and try again.</source>
        <translation>Korrigieren Sie die Angabe und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>It has to be moved on first: look at the steps it offers now.</source>
        <translation>Zuerst ist ein anderer Schritt nötig: Sehen Sie nach, welche Schritte jetzt möglich sind.</translation>
    </message>
    <message>
        <source>Something went wrong; it was logged. Try again, and tell an administrator if it keeps happening.</source>
        <translation>Etwas ist schiefgegangen; es wurde protokolliert. Versuchen Sie es erneut und informieren Sie einen Administrator, wenn es wieder passiert.</translation>
    </message>
    <message>
        <source>The platform does not answer. Your work is kept on this station; try again later.</source>
        <translation>Die Plattform antwortet nicht. Ihre Arbeit bleibt auf dieser Station gespeichert; versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <source>Cannot {action} a {record} that is {state}</source>
        <translation>{record} im Status „{state}“ kann nicht {action} werden</translation>
    </message>
    <message>
        <source>No {record} {id}</source>
        <translation>{record} {id} wurde nicht gefunden</translation>
    </message>
    <message>
        <source>{label} is too long ({length} characters; at most {limit}). {advice}</source>
        <translation>{label} ist zu lang ({length} Zeichen; höchstens {limit}). {advice}</translation>
    </message>
    <message>
        <source>{label} is too long (at most {limit}). {advice}</source>
        <translation>{label} ist zu lang (höchstens {limit}). {advice}</translation>
    </message>
    <message>
        <source>{start}… ({length} characters)</source>
        <translation>{start}… ({length} Zeichen)</translation>
    </message>
    <message>
        <source>The {field}</source>
        <translation>Das Feld „{field}“</translation>
    </message>
    <message>
        <source>{label}: choose at least one.</source>
        <translation>{label}: Wählen Sie mindestens einen Eintrag.</translation>
    </message>
    <message>
        <source>{label} is missing. Fill it in and try again.</source>
        <translation>{label} fehlt. Füllen Sie es aus und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>{label} is too short (at least {limit}). {advice}</source>
        <translation>{label} ist zu kurz (mindestens {limit}). {advice}</translation>
    </message>
    <message>
        <source>{label} must be at least {limit}. Correct it and try again.</source>
        <translation>{label} muss mindestens {limit} sein. Korrigieren Sie die Angabe und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>{label} must be at most {limit}. {advice}</source>
        <translation>{label} darf höchstens {limit} sein. {advice}</translation>
    </message>
    <message>
        <source>{label} is not one of the choices. Pick one from the list.</source>
        <translation>{label} ist keine der Auswahlmöglichkeiten. Wählen Sie einen Eintrag aus der Liste.</translation>
    </message>
    <message>
        <source>{label}: {problem}. {advice}</source>
        <translation>{label}: {problem}. {advice}</translation>
    </message>
</context>
</TS>
