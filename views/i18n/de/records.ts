<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>Action</name>
        <message>
            <source>abort</source>
            <translation>abgebrochen</translation>
        </message>
        <message>
            <source>accept</source>
            <translation>angenommen</translation>
        </message>
        <message>
            <source>acknowledge</source>
            <translation>quittiert</translation>
        </message>
        <message>
            <source>activate</source>
            <translation>aktiviert</translation>
        </message>
        <message>
            <source>applied</source>
            <translation>als übernommen markiert</translation>
        </message>
        <message>
            <source>approve</source>
            <translation>freigegeben</translation>
        </message>
        <message>
            <source>archive</source>
            <translation>archiviert</translation>
        </message>
        <message>
            <source>cancel</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>change</source>
            <translation>geändert</translation>
        </message>
        <message>
            <source>clear</source>
            <translation>aufgehoben</translation>
        </message>
        <message>
            <source>close</source>
            <translation>geschlossen</translation>
        </message>
        <message>
            <source>closed</source>
            <translation>geschlossen</translation>
        </message>
        <message>
            <source>complete</source>
            <translation>abgeschlossen</translation>
        </message>
        <message>
            <source>complete pack</source>
            <translation>fertig gepackt</translation>
        </message>
        <message>
            <source>complete pick</source>
            <translation>fertig kommissioniert</translation>
        </message>
        <message>
            <source>conflict</source>
            <translation>als Konflikt markiert</translation>
        </message>
        <message>
            <source>deactivate</source>
            <translation>deaktiviert</translation>
        </message>
        <message>
            <source>decline</source>
            <translation>abgelehnt</translation>
        </message>
        <message>
            <source>delete</source>
            <translation>gelöscht</translation>
        </message>
        <message>
            <source>deliver</source>
            <translation>zugestellt</translation>
        </message>
        <message>
            <source>diagnose</source>
            <translation>diagnostiziert</translation>
        </message>
        <message>
            <source>disable</source>
            <translation>deaktiviert</translation>
        </message>
        <message>
            <source>discard</source>
            <translation>verworfen</translation>
        </message>
        <message>
            <source>down</source>
            <translation>auf Stillstand gesetzt</translation>
        </message>
        <message>
            <source>edit</source>
            <translation>bearbeitet</translation>
        </message>
        <message>
            <source>enable</source>
            <translation>aktiviert</translation>
        </message>
        <message>
            <source>evaluate</source>
            <translation>bewertet</translation>
        </message>
        <message>
            <source>expire</source>
            <translation>als abgelaufen markiert</translation>
        </message>
        <message>
            <source>fail</source>
            <translation>als fehlgeschlagen markiert</translation>
        </message>
        <message>
            <source>file</source>
            <translation>eingereicht</translation>
        </message>
        <message>
            <source>finish</source>
            <translation>beendet</translation>
        </message>
        <message>
            <source>go live</source>
            <translation>live geschaltet</translation>
        </message>
        <message>
            <source>idle</source>
            <translation>auf Leerlauf gesetzt</translation>
        </message>
        <message>
            <source>inspect</source>
            <translation>geprüft</translation>
        </message>
        <message>
            <source>keep theirs</source>
            <translation>durch die Version der Plattform ersetzt</translation>
        </message>
        <message>
            <source>offer</source>
            <translation>angeboten</translation>
        </message>
        <message>
            <source>offline</source>
            <translation>offline gesetzt</translation>
        </message>
        <message>
            <source>open</source>
            <translation>geöffnet</translation>
        </message>
        <message>
            <source>pack</source>
            <translation>gepackt</translation>
        </message>
        <message>
            <source>pause</source>
            <translation>pausiert</translation>
        </message>
        <message>
            <source>pending</source>
            <translation>auf wartend gesetzt</translation>
        </message>
        <message>
            <source>pick</source>
            <translation>kommissioniert</translation>
        </message>
        <message>
            <source>publish</source>
            <translation>veröffentlicht</translation>
        </message>
        <message>
            <source>raise</source>
            <translation>ausgelöst</translation>
        </message>
        <message>
            <source>receive</source>
            <translation>angenommen</translation>
        </message>
        <message>
            <source>receive all</source>
            <translation>vollständig angenommen</translation>
        </message>
        <message>
            <source>receive part</source>
            <translation>teilweise angenommen</translation>
        </message>
        <message>
            <source>reformulate</source>
            <translation>umformuliert</translation>
        </message>
        <message>
            <source>reinstate</source>
            <translation>wieder aufgenommen</translation>
        </message>
        <message>
            <source>reject</source>
            <translation>abgelehnt</translation>
        </message>
        <message>
            <source>rejected</source>
            <translation>als abgelehnt markiert</translation>
        </message>
        <message>
            <source>release</source>
            <translation>freigegeben</translation>
        </message>
        <message>
            <source>remind</source>
            <translation>erinnert</translation>
        </message>
        <message>
            <source>repair</source>
            <translation>repariert</translation>
        </message>
        <message>
            <source>replace</source>
            <translation>ersetzt</translation>
        </message>
        <message>
            <source>resend</source>
            <translation>erneut gesendet</translation>
        </message>
        <message>
            <source>resolve</source>
            <translation>gelöst</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>als gelöst markiert</translation>
        </message>
        <message>
            <source>restore</source>
            <translation>wiederhergestellt</translation>
        </message>
        <message>
            <source>resume</source>
            <translation>fortgesetzt</translation>
        </message>
        <message>
            <source>retarget</source>
            <translation>neu ausgerichtet</translation>
        </message>
        <message>
            <source>retry</source>
            <translation>erneut versucht</translation>
        </message>
        <message>
            <source>return</source>
            <translation>zurückgesendet</translation>
        </message>
        <message>
            <source>reverse</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>rework</source>
            <translation>nachgearbeitet</translation>
        </message>
        <message>
            <source>running</source>
            <translation>auf Betrieb gesetzt</translation>
        </message>
        <message>
            <source>schedule</source>
            <translation>eingeplant</translation>
        </message>
        <message>
            <source>send</source>
            <translation>gesendet</translation>
        </message>
        <message>
            <source>setup</source>
            <translation>eingerichtet</translation>
        </message>
        <message>
            <source>ship</source>
            <translation>versendet</translation>
        </message>
        <message>
            <source>ship return</source>
            <translation>zurückversendet</translation>
        </message>
        <message>
            <source>sign</source>
            <translation>unterschrieben</translation>
        </message>
        <message>
            <source>split</source>
            <translation>geteilt</translation>
        </message>
        <message>
            <source>start</source>
            <translation>gestartet</translation>
        </message>
        <message>
            <source>start inspection</source>
            <translation>in die Prüfung genommen</translation>
        </message>
        <message>
            <source>submit</source>
            <translation>eingereicht</translation>
        </message>
        <message>
            <source>succeed</source>
            <translation>als erfolgreich markiert</translation>
        </message>
        <message>
            <source>suspend</source>
            <translation>gesperrt</translation>
        </message>
        <message>
            <source>to draft</source>
            <translation>zum Entwurf gemacht</translation>
        </message>
        <message>
            <source>unpick</source>
            <translation>zurückgelegt</translation>
        </message>
        <message>
            <source>unpublish</source>
            <translation>zurückgezogen</translation>
        </message>
        <message>
            <source>unschedule</source>
            <translation>ausgeplant</translation>
        </message>
        <message>
            <source>update</source>
            <translation>aktualisiert</translation>
        </message>
        <message>
            <source>verify</source>
            <translation>verifiziert</translation>
        </message>
        <message>
            <source>view</source>
            <translation>angesehen</translation>
        </message>
        <message>
            <source>void</source>
            <translation>ungültig gemacht</translation>
        </message>
    </context>
    <context>
        <name>DateInput</name>
        <message>
            <source>Type a date as {value}; Up/Down: a day, Page Up/Down: a month, F4 or Alt+Down: calendar</source>
            <translation>Datum als {value} eingeben; Auf/Ab: ein Tag, Bild auf/ab: ein Monat, F4 oder Alt+Ab: Kalender</translation>
        </message>
        <message>
            <source>Calendar (F4)</source>
            <translation>Kalender (F4)</translation>
        </message>
    </context>
    <context>
        <name>FileViewer</name>
        <message>
            <source>Save…</source>
            <translation>Speichern…</translation>
        </message>
        <message>
            <source>Print to…</source>
            <translation>Drucken auf…</translation>
        </message>
        <message>
            <source>&amp;Print</source>
            <translation>&amp;Drucken</translation>
        </message>
        <message>
            <source>On this station's printers (Settings → Printing)</source>
            <translation>Auf den Druckern dieser Station (Einstellungen → Drucken)</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Speichern</translation>
        </message>
        <message>
            <source>Could not save: {exc.strerror}</source>
            <translation>Speichern nicht möglich: {exc.strerror}</translation>
        </message>
    </context>
    <context>
        <name>PairsInput</name>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>Wert</translation>
        </message>
    </context>
    <context>
        <name>Palette</name>
        <message>
            <source>Find a record</source>
            <translation>Datensatz finden</translation>
        </message>
        <message>
            <source>Order or ticket number, name, serial number…</source>
            <translation>Auftrags- oder Ticketnummer, Name, Seriennummer…</translation>
        </message>
        <message>
            <source>Records found</source>
            <translation>Gefundene Datensätze</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>Suche läuft…</translation>
        </message>
        <message numerus="yes">
            <source>%Ln found</source>
            <translation>
                <numerusform>%Ln gefunden</numerusform>
                <numerusform>%Ln gefunden</numerusform>
            </translation>
        </message>
        <message>
            <source>Nothing found</source>
            <translation>Nichts gefunden</translation>
        </message>
    </context>
    <context>
        <name>RecordName</name>
        <message>
            <source>W-9</source>
            <translation>W-9</translation>
        </message>
        <message>
            <source>alarm</source>
            <translation>Alarm</translation>
        </message>
        <message>
            <source>alert</source>
            <translation>Warnung</translation>
        </message>
        <message>
            <source>batch</source>
            <translation>Sammelkommissionierung</translation>
        </message>
        <message>
            <source>campaign</source>
            <translation>Kampagne</translation>
        </message>
        <message>
            <source>claim</source>
            <translation>Garantiefall</translation>
        </message>
        <message>
            <source>delivery</source>
            <translation>Zustellung</translation>
        </message>
        <message>
            <source>document</source>
            <translation>Dokument</translation>
        </message>
        <message>
            <source>filing</source>
            <translation>Meldung</translation>
        </message>
        <message>
            <source>flow</source>
            <translation>Ablauf</translation>
        </message>
        <message>
            <source>formula</source>
            <translation>Rezeptur</translation>
        </message>
        <message>
            <source>job</source>
            <translation>Auftrag im Hintergrund</translation>
        </message>
        <message>
            <source>machine</source>
            <translation>Maschine</translation>
        </message>
        <message>
            <source>note</source>
            <translation>Notiz</translation>
        </message>
        <message>
            <source>order</source>
            <translation>Auftrag</translation>
        </message>
        <message>
            <source>outbox entry</source>
            <translation>Eintrag der Warteschlange</translation>
        </message>
        <message>
            <source>product</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <source>production run</source>
            <translation>Produktionslauf</translation>
        </message>
        <message>
            <source>purchase order</source>
            <translation>Bestellung</translation>
        </message>
        <message>
            <source>qr code</source>
            <translation>QR-Code</translation>
        </message>
        <message>
            <source>receipt</source>
            <translation>Beleg</translation>
        </message>
        <message>
            <source>redemption order</source>
            <translation>Einlöseauftrag</translation>
        </message>
        <message>
            <source>registration request</source>
            <translation>Registrierungsanfrage</translation>
        </message>
        <message>
            <source>repair order</source>
            <translation>Reparaturauftrag</translation>
        </message>
        <message>
            <source>signer</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <source>submission</source>
            <translation>Einsendung</translation>
        </message>
        <message>
            <source>survey</source>
            <translation>Umfrage</translation>
        </message>
        <message>
            <source>ticket</source>
            <translation>Ticket</translation>
        </message>
        <message>
            <source>transfer</source>
            <translation>Umlagerung</translation>
        </message>
    </context>
    <context>
        <name>RecordsWorkspace</name>
        <message>
            <source>Modules and records</source>
            <translation>Module und Datensätze</translation>
        </message>
        <message>
            <source>Choose a kind of record</source>
            <translation>Art des Datensatzes wählen</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Suchen</translation>
        </message>
        <message>
            <source>Search records</source>
            <translation>Datensätze durchsuchen</translation>
        </message>
        <message>
            <source>New…</source>
            <translation>Neu…</translation>
        </message>
        <message>
            <source>Export CSV…</source>
            <translation>CSV exportieren…</translation>
        </message>
        <message>
            <source>Records</source>
            <translation>Datensätze</translation>
        </message>
        <message>
            <source>Copy id</source>
            <translation>ID kopieren</translation>
        </message>
        <message>
            <source>{field}: any</source>
            <translation>{field}: alle</translation>
        </message>
        <message>
            <source>This list sorts by {columns} only.</source>
            <translation>Diese Liste lässt sich nur nach {columns} sortieren.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln records</source>
            <translation>
                <numerusform>%Ln Datensatz</numerusform>
                <numerusform>%Ln Datensätze</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{loaded} of %Ln records</source>
            <translation>
                <numerusform>{loaded} von %Ln Datensatz</numerusform>
                <numerusform>{loaded} von %Ln Datensätzen</numerusform>
            </translation>
        </message>
        <message>
            <source>Loading…</source>
            <translation>Wird geladen…</translation>
        </message>
        <message>
            <source>Select a record</source>
            <translation>Datensatz auswählen</translation>
        </message>
        <message>
            <source>Edit…</source>
            <translation>Bearbeiten…</translation>
        </message>
        <message>
            <source>Not possible while it is {status}</source>
            <translation>Nicht möglich im Status „{status}“</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>Bearbeiten</translation>
        </message>
        <message>
            <source>{action}? This cannot be undone.</source>
            <translation>{action}? Das lässt sich nicht rückgängig machen.</translation>
        </message>
        <message>
            <source>{action}: done</source>
            <translation>{action}: erledigt</translation>
        </message>
        <message>
            <source>Shown once</source>
            <translation>Nur einmal angezeigt</translation>
        </message>
        <message>
            <source>Copy it now: it is not shown again.</source>
            <translation>Jetzt kopieren: Der Wert wird nicht noch einmal angezeigt.</translation>
        </message>
        <message>
            <source>New {record}: choose the file</source>
            <translation>Neu ({record}): Datei wählen</translation>
        </message>
        <message>
            <source>New {record}</source>
            <translation>Neu: {record}</translation>
        </message>
        <message>
            <source>{record} created</source>
            <translation>Angelegt: {record}</translation>
        </message>
        <message>
            <source>Cannot read {file}: {reason}. Choose the file again.</source>
            <translation>{file} lässt sich nicht lesen: {reason}. Wählen Sie die Datei erneut.</translation>
        </message>
        <message>
            <source>New {record} from {file}</source>
            <translation>Neu ({record}) aus {file}</translation>
        </message>
        <message>
            <source>Export CSV</source>
            <translation>CSV exportieren</translation>
        </message>
        <message numerus="yes">
            <source>Exported %Ln rows to {file}</source>
            <translation>
                <numerusform>%Ln Zeile nach {file} exportiert</numerusform>
                <numerusform>%Ln Zeilen nach {file} exportiert</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RefPicker</name>
        <message>
            <source>Loading…</source>
            <translation>Wird geladen…</translation>
        </message>
        <message>
            <source>Type a name or code</source>
            <translation>Name oder Code eingeben</translation>
        </message>
        <message>
            <source>Type the code</source>
            <translation>Code eingeben</translation>
        </message>
    </context>
    <context>
        <name>State</name>
        <message>
            <source>aborted</source>
            <translation>abgebrochen</translation>
        </message>
        <message>
            <source>accepted</source>
            <translation>angenommen</translation>
        </message>
        <message>
            <source>acknowledged</source>
            <translation>quittiert</translation>
        </message>
        <message>
            <source>active</source>
            <translation>aktiv</translation>
        </message>
        <message>
            <source>active acknowledged</source>
            <translation>aktiv, quittiert</translation>
        </message>
        <message>
            <source>active unacknowledged</source>
            <translation>aktiv, nicht quittiert</translation>
        </message>
        <message>
            <source>approved</source>
            <translation>freigegeben</translation>
        </message>
        <message>
            <source>archived</source>
            <translation>archiviert</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>cleared</source>
            <translation>aufgehoben</translation>
        </message>
        <message>
            <source>cleared unacknowledged</source>
            <translation>aufgehoben, nicht quittiert</translation>
        </message>
        <message>
            <source>closed</source>
            <translation>geschlossen</translation>
        </message>
        <message>
            <source>completed</source>
            <translation>abgeschlossen</translation>
        </message>
        <message>
            <source>conflict</source>
            <translation>Konflikt</translation>
        </message>
        <message>
            <source>declined</source>
            <translation>abgelehnt</translation>
        </message>
        <message>
            <source>delivered</source>
            <translation>zugestellt</translation>
        </message>
        <message>
            <source>development</source>
            <translation>Entwicklung</translation>
        </message>
        <message>
            <source>diagnosed</source>
            <translation>diagnostiziert</translation>
        </message>
        <message>
            <source>dirty</source>
            <translation>geändert</translation>
        </message>
        <message>
            <source>disabled</source>
            <translation>deaktiviert</translation>
        </message>
        <message>
            <source>discarded</source>
            <translation>verworfen</translation>
        </message>
        <message>
            <source>down</source>
            <translation>Stillstand</translation>
        </message>
        <message>
            <source>draft</source>
            <translation>Entwurf</translation>
        </message>
        <message>
            <source>enabled</source>
            <translation>aktiviert</translation>
        </message>
        <message>
            <source>evaluation</source>
            <translation>Bewertung</translation>
        </message>
        <message>
            <source>expired</source>
            <translation>abgelaufen</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>fehlgeschlagen</translation>
        </message>
        <message>
            <source>filed</source>
            <translation>eingereicht</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>beendet</translation>
        </message>
        <message>
            <source>idle</source>
            <translation>Leerlauf</translation>
        </message>
        <message>
            <source>in progress</source>
            <translation>in Bearbeitung</translation>
        </message>
        <message>
            <source>in transit</source>
            <translation>unterwegs</translation>
        </message>
        <message>
            <source>inspected</source>
            <translation>geprüft</translation>
        </message>
        <message>
            <source>live</source>
            <translation>live</translation>
        </message>
        <message>
            <source>offered</source>
            <translation>angeboten</translation>
        </message>
        <message>
            <source>offline</source>
            <translation>offline</translation>
        </message>
        <message>
            <source>open</source>
            <translation>offen</translation>
        </message>
        <message>
            <source>ordered</source>
            <translation>bestellt</translation>
        </message>
        <message>
            <source>packed</source>
            <translation>gepackt</translation>
        </message>
        <message>
            <source>partially received</source>
            <translation>teilweise angenommen</translation>
        </message>
        <message>
            <source>paused</source>
            <translation>pausiert</translation>
        </message>
        <message>
            <source>pending</source>
            <translation>wartend</translation>
        </message>
        <message>
            <source>picked</source>
            <translation>kommissioniert</translation>
        </message>
        <message>
            <source>picking</source>
            <translation>in Kommissionierung</translation>
        </message>
        <message>
            <source>planned</source>
            <translation>geplant</translation>
        </message>
        <message>
            <source>production</source>
            <translation>Produktion</translation>
        </message>
        <message>
            <source>published</source>
            <translation>veröffentlicht</translation>
        </message>
        <message>
            <source>queued</source>
            <translation>in der Warteschlange</translation>
        </message>
        <message>
            <source>ready</source>
            <translation>bereit</translation>
        </message>
        <message>
            <source>received</source>
            <translation>angenommen</translation>
        </message>
        <message>
            <source>reformulation</source>
            <translation>Umformulierung</translation>
        </message>
        <message>
            <source>rejected</source>
            <translation>abgelehnt</translation>
        </message>
        <message>
            <source>repaired</source>
            <translation>repariert</translation>
        </message>
        <message>
            <source>replaced</source>
            <translation>ersetzt</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>gelöst</translation>
        </message>
        <message>
            <source>returned</source>
            <translation>zurückgesendet</translation>
        </message>
        <message>
            <source>reversed</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>running</source>
            <translation>in Betrieb</translation>
        </message>
        <message>
            <source>scheduled</source>
            <translation>eingeplant</translation>
        </message>
        <message>
            <source>sent</source>
            <translation>gesendet</translation>
        </message>
        <message>
            <source>setup</source>
            <translation>Rüsten</translation>
        </message>
        <message>
            <source>shipped</source>
            <translation>versendet</translation>
        </message>
        <message>
            <source>signed</source>
            <translation>unterschrieben</translation>
        </message>
        <message>
            <source>submitted</source>
            <translation>eingereicht</translation>
        </message>
        <message>
            <source>succeeded</source>
            <translation>erfolgreich</translation>
        </message>
        <message>
            <source>suspended</source>
            <translation>gesperrt</translation>
        </message>
        <message>
            <source>upcoming</source>
            <translation>bevorstehend</translation>
        </message>
        <message>
            <source>verified</source>
            <translation>verifiziert</translation>
        </message>
        <message>
            <source>viewed</source>
            <translation>angesehen</translation>
        </message>
        <message>
            <source>voided</source>
            <translation>ungültig</translation>
        </message>
    </context>
    <context>
        <name>_Table</name>
        <message>
            <source>Add row</source>
            <translation>Zeile hinzufügen</translation>
        </message>
        <message>
            <source>Remove row</source>
            <translation>Zeile entfernen</translation>
        </message>
    </context>
    <context>
        <name>records</name>
        <message>
            <source>All files (*)</source>
            <translation>Alle Dateien (*)</translation>
        </message>
        <message>
            <source>{field} (optional)</source>
            <translation>{field} (optional)</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>ja</translation>
        </message>
        <message>
            <source>no</source>
            <translation>nein</translation>
        </message>
        <message>
            <source>{list}: reading…</source>
            <translation>{list}: wird gelesen…</translation>
        </message>
        <message numerus="yes">
            <source>%Ln more</source>
            <translation>
                <numerusform>%Ln weiterer</numerusform>
                <numerusform>%Ln weitere</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n linked</source>
            <translation>
                <numerusform>%n verknüpft</numerusform>
                <numerusform>%n verknüpft</numerusform>
            </translation>
        </message>
        <message>
            <source>No {list} yet</source>
            <translation>Noch keine Einträge: {list}</translation>
        </message>
        <message>
            <source>Open this {record} (id {id})</source>
            <translation>Öffnen: {record} (ID {id})</translation>
        </message>
        <message>
            <source>Copy id</source>
            <translation>ID kopieren</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Kopieren</translation>
        </message>
        <message>
            <source>Open {record}</source>
            <translation>{record} öffnen</translation>
        </message>
        <message>
            <source>(gone)</source>
            <translation>(gelöscht)</translation>
        </message>
        <message>
            <source>A category with its sub-categories and documents</source>
            <translation>Eine Kategorie mit ihren Unterkategorien und Dokumenten</translation>
        </message>
        <message>
            <source>A trade-in's data erasure certificate</source>
            <translation>Datenlöschzertifikat eines Ankaufs</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API-Schlüssel</translation>
        </message>
        <message>
            <source>API keys</source>
            <translation>API-Schlüssel</translation>
        </message>
        <message>
            <source>Accept filing</source>
            <translation>Meldung annehmen</translation>
        </message>
        <message>
            <source>Accepted at</source>
            <translation>Angenommen am</translation>
        </message>
        <message>
            <source>Accepted offer</source>
            <translation>Angenommenes Angebot</translation>
        </message>
        <message>
            <source>Accessories</source>
            <translation>Zubehör</translation>
        </message>
        <message>
            <source>Account lock removed</source>
            <translation>Kontosperre aufheben</translation>
        </message>
        <message>
            <source>Acknowledge alarm</source>
            <translation>Alarm quittieren</translation>
        </message>
        <message>
            <source>Acknowledged at</source>
            <translation>Quittiert am</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>Aktion</translation>
        </message>
        <message>
            <source>Activate a subscription</source>
            <translation>Abonnement aktivieren</translation>
        </message>
        <message>
            <source>Active</source>
            <translation>Aktiv</translation>
        </message>
        <message>
            <source>Actor</source>
            <translation>Ausgeführt von</translation>
        </message>
        <message>
            <source>Add media</source>
            <translation>Medien hinzufügen</translation>
        </message>
        <message>
            <source>Add signer</source>
            <translation>Unterzeichner hinzufügen</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>Address line 1</source>
            <translation>Adresszeile 1</translation>
        </message>
        <message>
            <source>Address line 2</source>
            <translation>Adresszeile 2</translation>
        </message>
        <message>
            <source>Alarm</source>
            <translation>Alarm</translation>
        </message>
        <message>
            <source>Alarms</source>
            <translation>Alarme</translation>
        </message>
        <message>
            <source>Alert</source>
            <translation>Warnung</translation>
        </message>
        <message>
            <source>Alerts</source>
            <translation>Warnungen</translation>
        </message>
        <message>
            <source>Allergen</source>
            <translation>Allergen</translation>
        </message>
        <message>
            <source>Allergens</source>
            <translation>Allergene</translation>
        </message>
        <message>
            <source>Allow negative</source>
            <translation>Negativbestand zulassen</translation>
        </message>
        <message>
            <source>Allowed actions</source>
            <translation>Erlaubte Aktionen</translation>
        </message>
        <message>
            <source>Allowed states</source>
            <translation>Erlaubte Zustände</translation>
        </message>
        <message>
            <source>Amend</source>
            <translation>Ändern</translation>
        </message>
        <message>
            <source>Amount</source>
            <translation>Betrag</translation>
        </message>
        <message>
            <source>Analytics</source>
            <translation>Auswertungen</translation>
        </message>
        <message>
            <source>Approve dealer</source>
            <translation>Händler freigeben</translation>
        </message>
        <message>
            <source>Approve filing</source>
            <translation>Meldung genehmigen</translation>
        </message>
        <message>
            <source>Approved at</source>
            <translation>Genehmigt am</translation>
        </message>
        <message>
            <source>Assignee</source>
            <translation>Bearbeiter</translation>
        </message>
        <message>
            <source>Assignee name</source>
            <translation>Name des Bearbeiters</translation>
        </message>
        <message>
            <source>At</source>
            <translation>Zeitpunkt</translation>
        </message>
        <message>
            <source>Ate</source>
            <translation>ATE</translation>
        </message>
        <message>
            <source>Attachments</source>
            <translation>Anhänge</translation>
        </message>
        <message>
            <source>Attempts</source>
            <translation>Versuche</translation>
        </message>
        <message>
            <source>Attributes</source>
            <translation>Attribute</translation>
        </message>
        <message>
            <source>Audit</source>
            <translation>Prüfprotokoll</translation>
        </message>
        <message>
            <source>Author</source>
            <translation>Verfasser</translation>
        </message>
        <message>
            <source>Authorise return</source>
            <translation>Rücksendung genehmigen</translation>
        </message>
        <message>
            <source>Availability</source>
            <translation>Verfügbarkeit</translation>
        </message>
        <message>
            <source>Available</source>
            <translation>Verfügbar</translation>
        </message>
        <message>
            <source>Backorder of</source>
            <translation>Nachlieferung zu</translation>
        </message>
        <message>
            <source>Backordered</source>
            <translation>Nachbestellt</translation>
        </message>
        <message>
            <source>Balance</source>
            <translation>Saldo</translation>
        </message>
        <message>
            <source>Balance after</source>
            <translation>Saldo danach</translation>
        </message>
        <message>
            <source>Barcode</source>
            <translation>Barcode</translation>
        </message>
        <message>
            <source>Base value</source>
            <translation>Grundwert</translation>
        </message>
        <message>
            <source>Batch</source>
            <translation>Sammelauftrag</translation>
        </message>
        <message>
            <source>Batch number</source>
            <translation>Nummer des Sammelauftrags</translation>
        </message>
        <message>
            <source>Batches</source>
            <translation>Sammelaufträge</translation>
        </message>
        <message>
            <source>Battery health</source>
            <translation>Akkuzustand</translation>
        </message>
        <message>
            <source>Below</source>
            <translation>Unter</translation>
        </message>
        <message>
            <source>Billing address</source>
            <translation>Rechnungsadresse</translation>
        </message>
        <message>
            <source>Blacklist status</source>
            <translation>Sperrlistenstatus</translation>
        </message>
        <message>
            <source>Body</source>
            <translation>Inhalt</translation>
        </message>
        <message>
            <source>Boiling point c</source>
            <translation>Siedepunkt (°C)</translation>
        </message>
        <message>
            <source>Bom</source>
            <translation>Stückliste</translation>
        </message>
        <message>
            <source>Boms</source>
            <translation>Stücklisten</translation>
        </message>
        <message>
            <source>Border</source>
            <translation>Rand</translation>
        </message>
        <message>
            <source>Bots</source>
            <translation>Bots</translation>
        </message>
        <message>
            <source>Bounced</source>
            <translation>Unzustellbar</translation>
        </message>
        <message>
            <source>Box</source>
            <translation>Karton</translation>
        </message>
        <message>
            <source>Bucket</source>
            <translation>Zeitraster</translation>
        </message>
        <message>
            <source>Business name</source>
            <translation>Firmenname</translation>
        </message>
        <message>
            <source>By machine</source>
            <translation>Nach Maschine</translation>
        </message>
        <message>
            <source>By shift</source>
            <translation>Nach Schicht</translation>
        </message>
        <message>
            <source>Campaign</source>
            <translation>Kampagne</translation>
        </message>
        <message>
            <source>Campaigns</source>
            <translation>Kampagnen</translation>
        </message>
        <message>
            <source>Cancel batch</source>
            <translation>Sammelauftrag stornieren</translation>
        </message>
        <message>
            <source>Cancel claim</source>
            <translation>Reklamation stornieren</translation>
        </message>
        <message>
            <source>Cancel job</source>
            <translation>Vorgang abbrechen</translation>
        </message>
        <message>
            <source>Cancel order</source>
            <translation>Auftrag stornieren</translation>
        </message>
        <message>
            <source>Cancel reason</source>
            <translation>Stornogrund</translation>
        </message>
        <message>
            <source>Cancel repair order</source>
            <translation>Reparaturauftrag stornieren</translation>
        </message>
        <message>
            <source>Cancel transfer</source>
            <translation>Umlagerung stornieren</translation>
        </message>
        <message>
            <source>Cancelled at</source>
            <translation>Storniert am</translation>
        </message>
        <message>
            <source>Carrier</source>
            <translation>Versanddienstleister</translation>
        </message>
        <message>
            <source>Carrier status</source>
            <translation>Status beim Versanddienstleister</translation>
        </message>
        <message>
            <source>Cas</source>
            <translation>CAS-Nummer</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>Katalog</translation>
        </message>
        <message>
            <source>Catalogs</source>
            <translation>Kataloge</translation>
        </message>
        <message>
            <source>Categories</source>
            <translation>Kategorien</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>Kategorie</translation>
        </message>
        <message>
            <source>Category name</source>
            <translation>Kategoriename</translation>
        </message>
        <message>
            <source>Certificate</source>
            <translation>Zertifikat</translation>
        </message>
        <message>
            <source>Certificate PDF</source>
            <translation>Zertifikat (PDF)</translation>
        </message>
        <message>
            <source>Certificates</source>
            <translation>Zertifikate</translation>
        </message>
        <message>
            <source>Certified at</source>
            <translation>Zertifiziert am</translation>
        </message>
        <message>
            <source>Change destination</source>
            <translation>Ziel ändern</translation>
        </message>
        <message>
            <source>Changes</source>
            <translation>Änderungen</translation>
        </message>
        <message>
            <source>Channel</source>
            <translation>Kanal</translation>
        </message>
        <message>
            <source>Channels</source>
            <translation>Kanäle</translation>
        </message>
        <message>
            <source>Characters</source>
            <translation>Zeichen</translation>
        </message>
        <message>
            <source>Chart</source>
            <translation>Diagramm</translation>
        </message>
        <message>
            <source>Checklist</source>
            <translation>Checkliste</translation>
        </message>
        <message>
            <source>Choices</source>
            <translation>Auswahlmöglichkeiten</translation>
        </message>
        <message>
            <source>City</source>
            <translation>Ort</translation>
        </message>
        <message>
            <source>Claim</source>
            <translation>Reklamation</translation>
        </message>
        <message>
            <source>Claims</source>
            <translation>Reklamationen</translation>
        </message>
        <message>
            <source>Cleared at</source>
            <translation>Behoben am</translation>
        </message>
        <message>
            <source>Clicked</source>
            <translation>Geklickt</translation>
        </message>
        <message>
            <source>Close batch</source>
            <translation>Sammelauftrag abschließen</translation>
        </message>
        <message>
            <source>Close claim</source>
            <translation>Reklamation abschließen</translation>
        </message>
        <message>
            <source>Closed at</source>
            <translation>Geschlossen am</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>Code</translation>
        </message>
        <message>
            <source>Codes</source>
            <translation>Codes</translation>
        </message>
        <message>
            <source>Company</source>
            <translation>Firma</translation>
        </message>
        <message>
            <source>Complete</source>
            <translation>Vollständig</translation>
        </message>
        <message>
            <source>Complete products</source>
            <translation>Vollständige Artikel</translation>
        </message>
        <message>
            <source>Complete transfer</source>
            <translation>Umlagerung abschließen</translation>
        </message>
        <message>
            <source>Completed</source>
            <translation>Abgeschlossen</translation>
        </message>
        <message>
            <source>Completed at</source>
            <translation>Abgeschlossen am</translation>
        </message>
        <message>
            <source>Completeness</source>
            <translation>Vollständigkeit</translation>
        </message>
        <message>
            <source>Components</source>
            <translation>Komponenten</translation>
        </message>
        <message>
            <source>Compute allergens</source>
            <translation>Allergene berechnen</translation>
        </message>
        <message>
            <source>Condition</source>
            <translation>Zustand</translation>
        </message>
        <message>
            <source>Consent</source>
            <translation>Einwilligung</translation>
        </message>
        <message>
            <source>Contact</source>
            <translation>Kontakt</translation>
        </message>
        <message>
            <source>Contacts</source>
            <translation>Kontakte</translation>
        </message>
        <message>
            <source>Content</source>
            <translation>Inhalt</translation>
        </message>
        <message>
            <source>Content type</source>
            <translation>Inhaltstyp</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>Anzahl</translation>
        </message>
        <message>
            <source>Counted</source>
            <translation>Gezählt</translation>
        </message>
        <message>
            <source>Counted at</source>
            <translation>Gezählt am</translation>
        </message>
        <message>
            <source>Country</source>
            <translation>Land</translation>
        </message>
        <message>
            <source>Coverage until</source>
            <translation>Abgedeckt bis</translation>
        </message>
        <message>
            <source>Created at</source>
            <translation>Angelegt am</translation>
        </message>
        <message>
            <source>Createdat</source>
            <translation>Angelegt am</translation>
        </message>
        <message>
            <source>Credit</source>
            <translation>Gutschrift</translation>
        </message>
        <message>
            <source>Currency</source>
            <translation>Währung</translation>
        </message>
        <message>
            <source>Current offer</source>
            <translation>Aktuelles Angebot</translation>
        </message>
        <message>
            <source>Custom fields</source>
            <translation>Eigene Felder</translation>
        </message>
        <message>
            <source>Customer</source>
            <translation>Kunde</translation>
        </message>
        <message>
            <source>Customer email</source>
            <translation>E-Mail des Kunden</translation>
        </message>
        <message>
            <source>Customer name</source>
            <translation>Kundenname</translation>
        </message>
        <message>
            <source>Customers</source>
            <translation>Kunden</translation>
        </message>
        <message>
            <source>Dashboard</source>
            <translation>Dashboard</translation>
        </message>
        <message>
            <source>Dashboards</source>
            <translation>Dashboards</translation>
        </message>
        <message>
            <source>Data</source>
            <translation>Daten</translation>
        </message>
        <message>
            <source>Data wiped</source>
            <translation>Daten gelöscht</translation>
        </message>
        <message>
            <source>Date</source>
            <translation>Datum</translation>
        </message>
        <message>
            <source>Days</source>
            <translation>Tage</translation>
        </message>
        <message>
            <source>Days left</source>
            <translation>Verbleibende Tage</translation>
        </message>
        <message>
            <source>Deactivate a subscription</source>
            <translation>Abonnement deaktivieren</translation>
        </message>
        <message>
            <source>Dealer</source>
            <translation>Händler</translation>
        </message>
        <message>
            <source>Dealer name</source>
            <translation>Händlername</translation>
        </message>
        <message>
            <source>Decided at</source>
            <translation>Entschieden am</translation>
        </message>
        <message>
            <source>Decision</source>
            <translation>Entscheidung</translation>
        </message>
        <message>
            <source>Declared value</source>
            <translation>Angegebener Wert</translation>
        </message>
        <message>
            <source>Declared values</source>
            <translation>Angegebene Werte</translation>
        </message>
        <message>
            <source>Decline dealer</source>
            <translation>Händler ablehnen</translation>
        </message>
        <message>
            <source>Decline reason</source>
            <translation>Ablehnungsgrund</translation>
        </message>
        <message>
            <source>Delete QR code</source>
            <translation>QR-Code löschen</translation>
        </message>
        <message>
            <source>Delete a subscription</source>
            <translation>Abonnement löschen</translation>
        </message>
        <message>
            <source>Delete alert</source>
            <translation>Warnung löschen</translation>
        </message>
        <message>
            <source>Delete barcode</source>
            <translation>Barcode löschen</translation>
        </message>
        <message>
            <source>Delete category</source>
            <translation>Kategorie löschen</translation>
        </message>
        <message>
            <source>Delete contact</source>
            <translation>Kontakt löschen</translation>
        </message>
        <message>
            <source>Delete dashboard</source>
            <translation>Dashboard löschen</translation>
        </message>
        <message>
            <source>Delete document</source>
            <translation>Dokument löschen</translation>
        </message>
        <message>
            <source>Delete earning rule</source>
            <translation>Punkteregel löschen</translation>
        </message>
        <message>
            <source>Delete folder</source>
            <translation>Ordner löschen</translation>
        </message>
        <message>
            <source>Delete list</source>
            <translation>Liste löschen</translation>
        </message>
        <message>
            <source>Delete or void document</source>
            <translation>Dokument löschen oder ungültig machen</translation>
        </message>
        <message>
            <source>Delete template</source>
            <translation>Vorlage löschen</translation>
        </message>
        <message>
            <source>Deleted at</source>
            <translation>Gelöscht am</translation>
        </message>
        <message>
            <source>Delivered at</source>
            <translation>Zugestellt am</translation>
        </message>
        <message>
            <source>Deliveries</source>
            <translation>Zustellungen</translation>
        </message>
        <message>
            <source>Delta</source>
            <translation>Differenz</translation>
        </message>
        <message>
            <source>Depth</source>
            <translation>Tiefe</translation>
        </message>
        <message>
            <source>Description</source>
            <translation>Beschreibung</translation>
        </message>
        <message>
            <source>Detail</source>
            <translation>Details</translation>
        </message>
        <message>
            <source>Diagnose repair order</source>
            <translation>Reparaturauftrag diagnostizieren</translation>
        </message>
        <message>
            <source>Diagnosed at</source>
            <translation>Diagnostiziert am</translation>
        </message>
        <message>
            <source>Diagnosis</source>
            <translation>Diagnose</translation>
        </message>
        <message>
            <source>Dimensions</source>
            <translation>Abmessungen</translation>
        </message>
        <message>
            <source>Disabled</source>
            <translation>Deaktiviert</translation>
        </message>
        <message>
            <source>Disabled at</source>
            <translation>Deaktiviert am</translation>
        </message>
        <message>
            <source>Disabled reason</source>
            <translation>Grund der Deaktivierung</translation>
        </message>
        <message>
            <source>Disputes</source>
            <translation>Einsprüche</translation>
        </message>
        <message>
            <source>Doc categories</source>
            <translation>Dokumentkategorien</translation>
        </message>
        <message>
            <source>Doc category</source>
            <translation>Dokumentkategorie</translation>
        </message>
        <message>
            <source>Document</source>
            <translation>Dokument</translation>
        </message>
        <message>
            <source>Documents</source>
            <translation>Dokumente</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Erledigt</translation>
        </message>
        <message>
            <source>Download a generated PDF catalog</source>
            <translation>Erstellten PDF-Katalog herunterladen</translation>
        </message>
        <message>
            <source>Download as PNG, SVG or PDF</source>
            <translation>Als PNG, SVG oder PDF herunterladen</translation>
        </message>
        <message>
            <source>Duplicate of</source>
            <translation>Duplikat von</translation>
        </message>
        <message>
            <source>Dynamic</source>
            <translation>Dynamisch</translation>
        </message>
        <message>
            <source>Earning rule</source>
            <translation>Punkteregel</translation>
        </message>
        <message>
            <source>Earning rules</source>
            <translation>Punkteregeln</translation>
        </message>
        <message>
            <source>Effective from</source>
            <translation>Gültig ab</translation>
        </message>
        <message>
            <source>Effective to</source>
            <translation>Gültig bis</translation>
        </message>
        <message>
            <source>Email</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <source>Enabled</source>
            <translation>Aktiviert</translation>
        </message>
        <message>
            <source>Encoding</source>
            <translation>Codierung</translation>
        </message>
        <message>
            <source>End</source>
            <translation>Ende</translation>
        </message>
        <message>
            <source>Ended at</source>
            <translation>Beendet am</translation>
        </message>
        <message>
            <source>Ends on</source>
            <translation>Endet am</translation>
        </message>
        <message>
            <source>Enrolled</source>
            <translation>Angemeldet</translation>
        </message>
        <message>
            <source>Environment</source>
            <translation>Umwelt</translation>
        </message>
        <message>
            <source>Erasure</source>
            <translation>Datenlöschung</translation>
        </message>
        <message>
            <source>Error</source>
            <translation>Fehler</translation>
        </message>
        <message>
            <source>Error correction</source>
            <translation>Fehlerkorrektur</translation>
        </message>
        <message>
            <source>Evaluate formula</source>
            <translation>Rezeptur bewerten</translation>
        </message>
        <message>
            <source>Event</source>
            <translation>Ereignis</translation>
        </message>
        <message>
            <source>Event type</source>
            <translation>Ereignistyp</translation>
        </message>
        <message>
            <source>Event types</source>
            <translation>Ereignistypen</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>Ereignisse</translation>
        </message>
        <message>
            <source>Every</source>
            <translation>Alle</translation>
        </message>
        <message>
            <source>Exempt</source>
            <translation>Befreit</translation>
        </message>
        <message>
            <source>Exempt percentage</source>
            <translation>Befreiter Anteil (%)</translation>
        </message>
        <message>
            <source>Exemption number</source>
            <translation>Befreiungsnummer</translation>
        </message>
        <message>
            <source>Expiration date</source>
            <translation>Ablaufdatum</translation>
        </message>
        <message>
            <source>Expires at</source>
            <translation>Läuft ab am</translation>
        </message>
        <message>
            <source>Expires before</source>
            <translation>Läuft ab vor</translation>
        </message>
        <message>
            <source>Expires on</source>
            <translation>Läuft ab am</translation>
        </message>
        <message>
            <source>External number</source>
            <translation>Externe Nummer</translation>
        </message>
        <message>
            <source>Face value</source>
            <translation>Nennwert</translation>
        </message>
        <message>
            <source>Fail formula</source>
            <translation>Rezeptur als nicht bestanden markieren</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>Fehlgeschlagen</translation>
        </message>
        <message>
            <source>Families</source>
            <translation>Attributfamilien</translation>
        </message>
        <message>
            <source>Family</source>
            <translation>Attributfamilie</translation>
        </message>
        <message>
            <source>Field</source>
            <translation>Feld</translation>
        </message>
        <message>
            <source>Fields</source>
            <translation>Felder</translation>
        </message>
        <message>
            <source>File</source>
            <translation>Datei</translation>
        </message>
        <message>
            <source>File filing</source>
            <translation>Meldung einreichen</translation>
        </message>
        <message>
            <source>Filed at</source>
            <translation>Eingereicht am</translation>
        </message>
        <message>
            <source>Filename</source>
            <translation>Dateiname</translation>
        </message>
        <message>
            <source>Filing</source>
            <translation>Steuermeldung</translation>
        </message>
        <message>
            <source>Filings</source>
            <translation>Steuermeldungen</translation>
        </message>
        <message>
            <source>Filter</source>
            <translation>Filter</translation>
        </message>
        <message>
            <source>Filters</source>
            <translation>Filter</translation>
        </message>
        <message>
            <source>Finished at</source>
            <translation>Fertig am</translation>
        </message>
        <message>
            <source>Fired at</source>
            <translation>Ausgelöst am</translation>
        </message>
        <message>
            <source>First at</source>
            <translation>Erstmals am</translation>
        </message>
        <message>
            <source>First response at</source>
            <translation>Erste Antwort am</translation>
        </message>
        <message>
            <source>First response due</source>
            <translation>Erste Antwort fällig</translation>
        </message>
        <message>
            <source>Flash point c</source>
            <translation>Flammpunkt (°C)</translation>
        </message>
        <message>
            <source>Flow</source>
            <translation>Ablauf</translation>
        </message>
        <message>
            <source>Flows</source>
            <translation>Abläufe</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>Ordner</translation>
        </message>
        <message>
            <source>Folders</source>
            <translation>Ordner</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Formula</source>
            <translation>Rezeptur</translation>
        </message>
        <message>
            <source>Formulas</source>
            <translation>Rezepturen</translation>
        </message>
        <message>
            <source>Frequency</source>
            <translation>Häufigkeit</translation>
        </message>
        <message>
            <source>From</source>
            <translation>Von</translation>
        </message>
        <message>
            <source>From document</source>
            <translation>Aus Dokument</translation>
        </message>
        <message>
            <source>From location</source>
            <translation>Von Lagerplatz</translation>
        </message>
        <message>
            <source>From template</source>
            <translation>Aus Vorlage</translation>
        </message>
        <message>
            <source>Fulfillment</source>
            <translation>Versand</translation>
        </message>
        <message>
            <source>Functions</source>
            <translation>Funktionen</translation>
        </message>
        <message>
            <source>Good</source>
            <translation>Gut</translation>
        </message>
        <message>
            <source>Good count</source>
            <translation>Gutteile</translation>
        </message>
        <message>
            <source>Grace seconds</source>
            <translation>Karenzzeit (Sekunden)</translation>
        </message>
        <message>
            <source>Graded condition</source>
            <translation>Bewerteter Zustand</translation>
        </message>
        <message>
            <source>Group</source>
            <translation>Gruppe</translation>
        </message>
        <message>
            <source>Group by</source>
            <translation>Gruppieren nach</translation>
        </message>
        <message>
            <source>Has file</source>
            <translation>Mit Datei</translation>
        </message>
        <message>
            <source>Has image</source>
            <translation>Mit Bild</translation>
        </message>
        <message>
            <source>Hazards</source>
            <translation>Gefahren</translation>
        </message>
        <message>
            <source>Height</source>
            <translation>Höhe</translation>
        </message>
        <message>
            <source>Html</source>
            <translation>HTML</translation>
        </message>
        <message>
            <source>Ideal cycle seconds</source>
            <translation>Idealzykluszeit (Sekunden)</translation>
        </message>
        <message>
            <source>Ideal seconds</source>
            <translation>Idealzeit (Sekunden)</translation>
        </message>
        <message>
            <source>Image</source>
            <translation>Bild</translation>
        </message>
        <message>
            <source>In person</source>
            <translation>Persönlich</translation>
        </message>
        <message>
            <source>Inbound</source>
            <translation>Wareneingang</translation>
        </message>
        <message>
            <source>Inci</source>
            <translation>INCI</translation>
        </message>
        <message>
            <source>Include children</source>
            <translation>Unterordner einbeziehen</translation>
        </message>
        <message>
            <source>Incomplete</source>
            <translation>Unvollständig</translation>
        </message>
        <message>
            <source>Ingredient</source>
            <translation>Inhaltsstoff</translation>
        </message>
        <message>
            <source>Ingredients</source>
            <translation>Inhaltsstoffe</translation>
        </message>
        <message>
            <source>Inhalation form</source>
            <translation>Form beim Einatmen</translation>
        </message>
        <message>
            <source>Inspect trade-in</source>
            <translation>Ankauf prüfen</translation>
        </message>
        <message>
            <source>Inspection</source>
            <translation>Prüfung</translation>
        </message>
        <message>
            <source>Internal</source>
            <translation>Intern</translation>
        </message>
        <message>
            <source>Interval</source>
            <translation>Intervall</translation>
        </message>
        <message>
            <source>Into</source>
            <translation>In</translation>
        </message>
        <message>
            <source>Inventory</source>
            <translation>Lager</translation>
        </message>
        <message>
            <source>Ip</source>
            <translation>IP-Adresse</translation>
        </message>
        <message>
            <source>Is phone</source>
            <translation>Ist Telefon</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>Position</translation>
        </message>
        <message>
            <source>Items</source>
            <translation>Positionen</translation>
        </message>
        <message>
            <source>Job</source>
            <translation>Vorgang</translation>
        </message>
        <message>
            <source>Jobs</source>
            <translation>Vorgänge</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Art</translation>
        </message>
        <message>
            <source>Kit barcode</source>
            <translation>Set-Barcode</translation>
        </message>
        <message>
            <source>Label</source>
            <translation>Etikett</translation>
        </message>
        <message>
            <source>Label bought for order</source>
            <translation>Etikett für Auftrag gekauft</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Sprache</translation>
        </message>
        <message>
            <source>Languages</source>
            <translation>Sprachen</translation>
        </message>
        <message>
            <source>Last checked at</source>
            <translation>Zuletzt geprüft am</translation>
        </message>
        <message>
            <source>Last error</source>
            <translation>Letzter Fehler</translation>
        </message>
        <message>
            <source>Last sent at</source>
            <translation>Zuletzt gesendet am</translation>
        </message>
        <message>
            <source>Last status code</source>
            <translation>Letzter Statuscode</translation>
        </message>
        <message>
            <source>Last used at</source>
            <translation>Zuletzt verwendet am</translation>
        </message>
        <message>
            <source>Last value</source>
            <translation>Letzter Wert</translation>
        </message>
        <message>
            <source>Lastseenat</source>
            <translation>Zuletzt gesehen am</translation>
        </message>
        <message>
            <source>Lastseq</source>
            <translation>Letzte Folgenummer</translation>
        </message>
        <message>
            <source>Ledger</source>
            <translation>Punktekonto</translation>
        </message>
        <message>
            <source>Liability</source>
            <translation>Steuerschuld</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>Limit</translation>
        </message>
        <message>
            <source>Line</source>
            <translation>Position</translation>
        </message>
        <message>
            <source>Line count</source>
            <translation>Anzahl Positionen</translation>
        </message>
        <message>
            <source>Lines</source>
            <translation>Positionen</translation>
        </message>
        <message>
            <source>List</source>
            <translation>Liste</translation>
        </message>
        <message>
            <source>Lists</source>
            <translation>Listen</translation>
        </message>
        <message>
            <source>Live liability</source>
            <translation>Aktuelle Steuerschuld</translation>
        </message>
        <message>
            <source>Location</source>
            <translation>Lagerplatz</translation>
        </message>
        <message>
            <source>Location code</source>
            <translation>Lagerplatzcode</translation>
        </message>
        <message>
            <source>Locations</source>
            <translation>Lagerplätze</translation>
        </message>
        <message>
            <source>Locked</source>
            <translation>Gesperrt</translation>
        </message>
        <message>
            <source>Logo file</source>
            <translation>Logodatei</translation>
        </message>
        <message>
            <source>Lot</source>
            <translation>Charge</translation>
        </message>
        <message>
            <source>Lot counted</source>
            <translation>Charge gezählt</translation>
        </message>
        <message>
            <source>Lots</source>
            <translation>Chargen</translation>
        </message>
        <message>
            <source>M acute</source>
            <translation>M-Faktor akut</translation>
        </message>
        <message>
            <source>M chronic</source>
            <translation>M-Faktor chronisch</translation>
        </message>
        <message>
            <source>Machine</source>
            <translation>Maschine</translation>
        </message>
        <message>
            <source>Machine events</source>
            <translation>Maschinenereignisse</translation>
        </message>
        <message>
            <source>Machines</source>
            <translation>Maschinen</translation>
        </message>
        <message>
            <source>Mail</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <source>Make certificate</source>
            <translation>Zertifikat erstellen</translation>
        </message>
        <message>
            <source>Make safety data sheet</source>
            <translation>Sicherheitsdatenblatt erstellen</translation>
        </message>
        <message>
            <source>Max attempts</source>
            <translation>Höchstzahl Versuche</translation>
        </message>
        <message>
            <source>Max quantity</source>
            <translation>Höchstmenge</translation>
        </message>
        <message>
            <source>Max scans</source>
            <translation>Höchstzahl Scans</translation>
        </message>
        <message>
            <source>Media</source>
            <translation>Medien</translation>
        </message>
        <message>
            <source>Merge ticket</source>
            <translation>Ticket zusammenführen</translation>
        </message>
        <message>
            <source>Merged into</source>
            <translation>Zusammengeführt in</translation>
        </message>
        <message>
            <source>After-sales</source>
            <translation>Kundendienst</translation>
        </message>
        <message>
            <source>A/B test</source>
            <translation>A/B-Test</translation>
        </message>
        <message>
            <source>BOM</source>
            <translation>Stückliste</translation>
        </message>
        <message>
            <source>Background</source>
            <translation>Hintergrund</translation>
        </message>
        <message>
            <source>Delete valuation</source>
            <translation>Bewertung löschen</translation>
        </message>
        <message>
            <source>Destination URL</source>
            <translation>Ziel-URL</translation>
        </message>
        <message>
            <source>Documentation</source>
            <translation>Dokumentation</translation>
        </message>
        <message>
            <source>Download URL</source>
            <translation>Download-URL</translation>
        </message>
        <message>
            <source>External ID</source>
            <translation>Externe ID</translation>
        </message>
        <message>
            <source>Fallback URL</source>
            <translation>Ausweich-URL</translation>
        </message>
        <message>
            <source>Foreground</source>
            <translation>Vordergrund</translation>
        </message>
        <message>
            <source>GTIN</source>
            <translation>GTIN</translation>
        </message>
        <message>
            <source>Helpdesk</source>
            <translation>Helpdesk</translation>
        </message>
        <message>
            <source>ID</source>
            <translation>ID</translation>
        </message>
        <message>
            <source>IMEI</source>
            <translation>IMEI</translation>
        </message>
        <message>
            <source>Image URL</source>
            <translation>Bild-URL</translation>
        </message>
        <message>
            <source>Manufacturing</source>
            <translation>Fertigung</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>Nachricht</translation>
        </message>
        <message>
            <source>Method</source>
            <translation>Methode</translation>
        </message>
        <message>
            <source>Metric</source>
            <translation>Kennzahl</translation>
        </message>
        <message>
            <source>Metrics</source>
            <translation>Kennzahlen</translation>
        </message>
        <message>
            <source>Min quantity</source>
            <translation>Mindestmenge</translation>
        </message>
        <message>
            <source>Minutes</source>
            <translation>Minuten</translation>
        </message>
        <message>
            <source>Minutes per unit</source>
            <translation>Minuten pro Stück</translation>
        </message>
        <message>
            <source>Modules</source>
            <translation>Module</translation>
        </message>
        <message>
            <source>Molecular formula</source>
            <translation>Summenformel</translation>
        </message>
        <message>
            <source>Move lot</source>
            <translation>Charge umlagern</translation>
        </message>
        <message>
            <source>Move serial</source>
            <translation>Seriennummer umlagern</translation>
        </message>
        <message>
            <source>Movement</source>
            <translation>Bewegung</translation>
        </message>
        <message>
            <source>Movements</source>
            <translation>Bewegungen</translation>
        </message>
        <message>
            <source>Multiplier</source>
            <translation>Multiplikator</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Next</source>
            <translation>Weiter</translation>
        </message>
        <message>
            <source>Next attempt at</source>
            <translation>Nächster Versuch am</translation>
        </message>
        <message>
            <source>Next run at</source>
            <translation>Nächster Lauf am</translation>
        </message>
        <message>
            <source>Note</source>
            <translation>Notiz</translation>
        </message>
        <message>
            <source>Notes</source>
            <translation>Notizen</translation>
        </message>
        <message>
            <source>Number</source>
            <translation>Nummer</translation>
        </message>
        <message>
            <source>Oee</source>
            <translation>OEE</translation>
        </message>
        <message>
            <source>Offer expires at</source>
            <translation>Angebot gültig bis</translation>
        </message>
        <message>
            <source>Offers</source>
            <translation>Angebote</translation>
        </message>
        <message>
            <source>Offline seconds</source>
            <translation>Offline (Sekunden)</translation>
        </message>
        <message>
            <source>Offset</source>
            <translation>Versatz</translation>
        </message>
        <message>
            <source>On hand</source>
            <translation>Vorrätig</translation>
        </message>
        <message>
            <source>One kept message</source>
            <translation>Eine gespeicherte Nachricht</translation>
        </message>
        <message>
            <source>Opened</source>
            <translation>Geöffnet</translation>
        </message>
        <message>
            <source>Operation</source>
            <translation>Arbeitsgang</translation>
        </message>
        <message>
            <source>Operator</source>
            <translation>Bediener</translation>
        </message>
        <message>
            <source>Operator name</source>
            <translation>Name des Bedieners</translation>
        </message>
        <message>
            <source>Operator time</source>
            <translation>Bedienerzeit</translation>
        </message>
        <message>
            <source>Operators</source>
            <translation>Bediener</translation>
        </message>
        <message>
            <source>Options</source>
            <translation>Optionen</translation>
        </message>
        <message>
            <source>Order</source>
            <translation>Auftrag</translation>
        </message>
        <message>
            <source>Order count</source>
            <translation>Anzahl Aufträge</translation>
        </message>
        <message>
            <source>Order external</source>
            <translation>Externe Auftragsnummer</translation>
        </message>
        <message>
            <source>Order number</source>
            <translation>Auftragsnummer</translation>
        </message>
        <message>
            <source>Orders</source>
            <translation>Aufträge</translation>
        </message>
        <message>
            <source>Origin</source>
            <translation>Herkunft</translation>
        </message>
        <message>
            <source>Other requesters</source>
            <translation>Weitere Anfragende</translation>
        </message>
        <message>
            <source>Outcome</source>
            <translation>Ergebnis</translation>
        </message>
        <message>
            <source>Owed</source>
            <translation>Geschuldet</translation>
        </message>
        <message>
            <source>Owing</source>
            <translation>Offen</translation>
        </message>
        <message>
            <source>Pack batch</source>
            <translation>Sammelauftrag packen</translation>
        </message>
        <message>
            <source>Pack order</source>
            <translation>Auftrag packen</translation>
        </message>
        <message>
            <source>Packed at</source>
            <translation>Gepackt am</translation>
        </message>
        <message>
            <source>Page</source>
            <translation>Seite</translation>
        </message>
        <message>
            <source>Pages</source>
            <translation>Seiten</translation>
        </message>
        <message>
            <source>Parent</source>
            <translation>Übergeordnet</translation>
        </message>
        <message>
            <source>Parts</source>
            <translation>Teile</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>Passwort</translation>
        </message>
        <message>
            <source>Path</source>
            <translation>Pfad</translation>
        </message>
        <message>
            <source>Pay out</source>
            <translation>Auszahlen</translation>
        </message>
        <message>
            <source>Payload format</source>
            <translation>Nutzdatenformat</translation>
        </message>
        <message>
            <source>Percent</source>
            <translation>Prozent</translation>
        </message>
        <message>
            <source>Performance</source>
            <translation>Leistung</translation>
        </message>
        <message>
            <source>Period end</source>
            <translation>Zeitraum bis</translation>
        </message>
        <message>
            <source>Period start</source>
            <translation>Zeitraum von</translation>
        </message>
        <message>
            <source>Permanent</source>
            <translation>Dauerhaft</translation>
        </message>
        <message>
            <source>Phone</source>
            <translation>Telefon</translation>
        </message>
        <message>
            <source>Photos</source>
            <translation>Fotos</translation>
        </message>
        <message>
            <source>Physical state</source>
            <translation>Aggregatzustand</translation>
        </message>
        <message>
            <source>Pick barcode</source>
            <translation>Barcode zum Kommissionieren</translation>
        </message>
        <message>
            <source>Pick batch</source>
            <translation>Sammelauftrag kommissionieren</translation>
        </message>
        <message>
            <source>Pick order</source>
            <translation>Auftrag kommissionieren</translation>
        </message>
        <message>
            <source>Picked at</source>
            <translation>Kommissioniert am</translation>
        </message>
        <message>
            <source>Picked quantity</source>
            <translation>Kommissionierte Menge</translation>
        </message>
        <message>
            <source>Picked units</source>
            <translation>Kommissionierte Einheiten</translation>
        </message>
        <message>
            <source>Place field</source>
            <translation>Feld platzieren</translation>
        </message>
        <message>
            <source>Placeholders</source>
            <translation>Platzhalter</translation>
        </message>
        <message>
            <source>Places</source>
            <translation>Lagerorte</translation>
        </message>
        <message>
            <source>Planned from</source>
            <translation>Geplant ab</translation>
        </message>
        <message>
            <source>Planned quantity</source>
            <translation>Geplante Menge</translation>
        </message>
        <message>
            <source>Planned seconds</source>
            <translation>Geplante Zeit (Sekunden)</translation>
        </message>
        <message>
            <source>Planned stop seconds</source>
            <translation>Geplanter Stillstand (Sekunden)</translation>
        </message>
        <message>
            <source>Platform</source>
            <translation>Plattform</translation>
        </message>
        <message>
            <source>Points</source>
            <translation>Punkte</translation>
        </message>
        <message>
            <source>Points per dollar</source>
            <translation>Punkte pro Dollar</translation>
        </message>
        <message>
            <source>Position</source>
            <translation>Position</translation>
        </message>
        <message>
            <source>Power on</source>
            <translation>Eingeschaltet</translation>
        </message>
        <message>
            <source>Prefix</source>
            <translation>Präfix</translation>
        </message>
        <message>
            <source>Previous secret expires at</source>
            <translation>Bisheriges Geheimnis gültig bis</translation>
        </message>
        <message>
            <source>Price</source>
            <translation>Preis</translation>
        </message>
        <message>
            <source>Priority</source>
            <translation>Priorität</translation>
        </message>
        <message>
            <source>Product</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <source>Product SKU</source>
            <translation>Artikelnummer</translation>
        </message>
        <message>
            <source>Product code</source>
            <translation>Artikelcode</translation>
        </message>
        <message>
            <source>Product count</source>
            <translation>Anzahl Artikel</translation>
        </message>
        <message>
            <source>Product name</source>
            <translation>Artikelname</translation>
        </message>
        <message>
            <source>Product type</source>
            <translation>Artikeltyp</translation>
        </message>
        <message>
            <source>Products</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <source>Progress</source>
            <translation>Fortschritt</translation>
        </message>
        <message>
            <source>Proof file</source>
            <translation>Nachweisdatei</translation>
        </message>
        <message>
            <source>Properties</source>
            <translation>Eigenschaften</translation>
        </message>
        <message>
            <source>Province</source>
            <translation>Bundesland</translation>
        </message>
        <message>
            <source>Provisional</source>
            <translation>Vorläufig</translation>
        </message>
        <message>
            <source>Pubchem cid</source>
            <translation>PubChem-CID</translation>
        </message>
        <message>
            <source>Public</source>
            <translation>Öffentlich</translation>
        </message>
        <message>
            <source>Published at</source>
            <translation>Veröffentlicht am</translation>
        </message>
        <message>
            <source>Purchase date</source>
            <translation>Kaufdatum</translation>
        </message>
        <message>
            <source>Purchase order</source>
            <translation>Bestellung</translation>
        </message>
        <message>
            <source>Purchase orders</source>
            <translation>Bestellungen</translation>
        </message>
        <message>
            <source>QR codes</source>
            <translation>QR-Codes</translation>
        </message>
        <message>
            <source>Qr</source>
            <translation>QR-Codes</translation>
        </message>
        <message>
            <source>Quality</source>
            <translation>Qualität</translation>
        </message>
        <message>
            <source>Quantity</source>
            <translation>Menge</translation>
        </message>
        <message>
            <source>Questions</source>
            <translation>Fragen</translation>
        </message>
        <message>
            <source>Queue</source>
            <translation>Warteschlange</translation>
        </message>
        <message>
            <source>Raised at</source>
            <translation>Ausgelöst am</translation>
        </message>
        <message>
            <source>Range days</source>
            <translation>Zeitraum (Tage)</translation>
        </message>
        <message>
            <source>Rate</source>
            <translation>Satz</translation>
        </message>
        <message>
            <source>Rate table</source>
            <translation>Steuersatztabelle</translation>
        </message>
        <message>
            <source>Rate tables</source>
            <translation>Steuersatztabellen</translation>
        </message>
        <message>
            <source>Rated at</source>
            <translation>Bewertet am</translation>
        </message>
        <message>
            <source>Reason</source>
            <translation>Grund</translation>
        </message>
        <message>
            <source>Receipt</source>
            <translation>Beleg</translation>
        </message>
        <message>
            <source>Receipts</source>
            <translation>Belege</translation>
        </message>
        <message>
            <source>Receive purchase order</source>
            <translation>Bestellung einlagern</translation>
        </message>
        <message>
            <source>Receive trade-in</source>
            <translation>Ankauf annehmen</translation>
        </message>
        <message>
            <source>Receive transfer</source>
            <translation>Umlagerung annehmen</translation>
        </message>
        <message>
            <source>Received at</source>
            <translation>Empfangen am</translation>
        </message>
        <message>
            <source>Recipient</source>
            <translation>Empfänger</translation>
        </message>
        <message>
            <source>Recipients</source>
            <translation>Empfänger</translation>
        </message>
        <message>
            <source>Record</source>
            <translation>Datensatz</translation>
        </message>
        <message>
            <source>Reference</source>
            <translation>Referenz</translation>
        </message>
        <message>
            <source>Reformulate formula</source>
            <translation>Rezeptur überarbeiten</translation>
        </message>
        <message>
            <source>Refund</source>
            <translation>Erstattung</translation>
        </message>
        <message>
            <source>Register request</source>
            <translation>Registrierungsanfrage</translation>
        </message>
        <message>
            <source>Register requests</source>
            <translation>Registrierungsanfragen</translation>
        </message>
        <message>
            <source>Reinstate dealer</source>
            <translation>Händler wieder zulassen</translation>
        </message>
        <message>
            <source>Reject W-9</source>
            <translation>W-9 ablehnen</translation>
        </message>
        <message>
            <source>Reject filing</source>
            <translation>Meldung ablehnen</translation>
        </message>
        <message>
            <source>Reject reason</source>
            <translation>Ablehnungsgrund</translation>
        </message>
        <message>
            <source>Reject trade-in</source>
            <translation>Ankauf ablehnen</translation>
        </message>
        <message>
            <source>Release formula</source>
            <translation>Rezeptur freigeben</translation>
        </message>
        <message>
            <source>Remove attribute family</source>
            <translation>Attributfamilie entfernen</translation>
        </message>
        <message>
            <source>Remove channel</source>
            <translation>Kanal entfernen</translation>
        </message>
        <message>
            <source>Remove product</source>
            <translation>Artikel entfernen</translation>
        </message>
        <message>
            <source>Reorder rule</source>
            <translation>Nachbestellregel</translation>
        </message>
        <message>
            <source>Reorder rules</source>
            <translation>Nachbestellregeln</translation>
        </message>
        <message>
            <source>Repair</source>
            <translation>Reparatur</translation>
        </message>
        <message>
            <source>Repair order</source>
            <translation>Reparaturauftrag</translation>
        </message>
        <message>
            <source>Repair repair order</source>
            <translation>Reparaturauftrag reparieren</translation>
        </message>
        <message>
            <source>Repairs</source>
            <translation>Reparaturen</translation>
        </message>
        <message>
            <source>Replace repair order</source>
            <translation>Reparaturauftrag durch Austausch erledigen</translation>
        </message>
        <message>
            <source>Replacement serial</source>
            <translation>Seriennummer des Ersatzgeräts</translation>
        </message>
        <message>
            <source>Replay</source>
            <translation>Erneut ausführen</translation>
        </message>
        <message>
            <source>Replay an event</source>
            <translation>Ereignis erneut zustellen</translation>
        </message>
        <message>
            <source>Reply on ticket</source>
            <translation>Auf Ticket antworten</translation>
        </message>
        <message>
            <source>Report</source>
            <translation>Bericht</translation>
        </message>
        <message>
            <source>Reports</source>
            <translation>Berichte</translation>
        </message>
        <message>
            <source>Requested</source>
            <translation>Angefordert</translation>
        </message>
        <message>
            <source>Requester</source>
            <translation>Anfragender</translation>
        </message>
        <message>
            <source>Requester email</source>
            <translation>E-Mail des Anfragenden</translation>
        </message>
        <message>
            <source>Requester name</source>
            <translation>Name des Anfragenden</translation>
        </message>
        <message>
            <source>Required</source>
            <translation>Pflichtfeld</translation>
        </message>
        <message>
            <source>Required in</source>
            <translation>Erforderlich in</translation>
        </message>
        <message>
            <source>Reservation</source>
            <translation>Reservierung</translation>
        </message>
        <message>
            <source>Reservations</source>
            <translation>Reservierungen</translation>
        </message>
        <message>
            <source>Reserved</source>
            <translation>Reserviert</translation>
        </message>
        <message>
            <source>Resolution</source>
            <translation>Lösung</translation>
        </message>
        <message>
            <source>Resolution due</source>
            <translation>Lösung fällig</translation>
        </message>
        <message>
            <source>Resolved at</source>
            <translation>Gelöst am</translation>
        </message>
        <message>
            <source>Responses</source>
            <translation>Antworten</translation>
        </message>
        <message>
            <source>Restore document</source>
            <translation>Dokument wiederherstellen</translation>
        </message>
        <message>
            <source>Restored from</source>
            <translation>Wiederhergestellt aus</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>Ergebnis</translation>
        </message>
        <message>
            <source>Retailer</source>
            <translation>Händler</translation>
        </message>
        <message>
            <source>Return repair order</source>
            <translation>Reparaturauftrag zurücksenden</translation>
        </message>
        <message>
            <source>Returned at</source>
            <translation>Zurückgesendet am</translation>
        </message>
        <message>
            <source>Reverse reason</source>
            <translation>Stornogrund</translation>
        </message>
        <message>
            <source>Reviewed at</source>
            <translation>Geprüft am</translation>
        </message>
        <message>
            <source>Revision</source>
            <translation>Revision</translation>
        </message>
        <message>
            <source>Revisions</source>
            <translation>Revisionen</translation>
        </message>
        <message>
            <source>Revoke API key</source>
            <translation>API-Schlüssel widerrufen</translation>
        </message>
        <message>
            <source>Revoke a station</source>
            <translation>Station sperren</translation>
        </message>
        <message>
            <source>Revoke exemption certificate</source>
            <translation>Befreiungsbescheinigung widerrufen</translation>
        </message>
        <message>
            <source>Revoke invitation</source>
            <translation>Einladung zurückziehen</translation>
        </message>
        <message>
            <source>Revoked at</source>
            <translation>Widerrufen am</translation>
        </message>
        <message>
            <source>Revokedat</source>
            <translation>Widerrufen am</translation>
        </message>
        <message>
            <source>Rewards</source>
            <translation>Prämien</translation>
        </message>
        <message>
            <source>Rework formula</source>
            <translation>Rezeptur nacharbeiten</translation>
        </message>
        <message>
            <source>Role</source>
            <translation>Rolle</translation>
        </message>
        <message>
            <source>Root</source>
            <translation>Stammordner</translation>
        </message>
        <message>
            <source>Rotate a subscription's secret</source>
            <translation>Geheimnis des Abonnements erneuern</translation>
        </message>
        <message>
            <source>Routing</source>
            <translation>Arbeitsplan</translation>
        </message>
        <message>
            <source>Routings</source>
            <translation>Arbeitspläne</translation>
        </message>
        <message>
            <source>Rows</source>
            <translation>Zeilen</translation>
        </message>
        <message>
            <source>Rule</source>
            <translation>Regel</translation>
        </message>
        <message>
            <source>Rules</source>
            <translation>Regeln</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <source>Run seconds</source>
            <translation>Laufzeit (Sekunden)</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>Läufe</translation>
        </message>
        <message>
            <source>SHA-256</source>
            <translation>SHA-256</translation>
        </message>
        <message>
            <source>SKU</source>
            <translation>SKU</translation>
        </message>
        <message>
            <source>SLA breached</source>
            <translation>SLA überschritten</translation>
        </message>
        <message>
            <source>Safety data sheet PDF</source>
            <translation>Sicherheitsdatenblatt (PDF)</translation>
        </message>
        <message>
            <source>Safety data sheets</source>
            <translation>Sicherheitsdatenblätter</translation>
        </message>
        <message>
            <source>Sales unit</source>
            <translation>Verkaufseinheit</translation>
        </message>
        <message>
            <source>Satisfaction comment</source>
            <translation>Kommentar zur Zufriedenheit</translation>
        </message>
        <message>
            <source>Satisfaction rating</source>
            <translation>Zufriedenheitsbewertung</translation>
        </message>
        <message>
            <source>Scan alert threshold</source>
            <translation>Warnschwelle für Scans</translation>
        </message>
        <message>
            <source>Scans</source>
            <translation>Scans</translation>
        </message>
        <message>
            <source>Scheduled report</source>
            <translation>Geplanter Bericht</translation>
        </message>
        <message>
            <source>Scheduled reports</source>
            <translation>Geplante Berichte</translation>
        </message>
        <message>
            <source>Scrap</source>
            <translation>Ausschuss</translation>
        </message>
        <message>
            <source>Scrap count</source>
            <translation>Ausschussteile</translation>
        </message>
        <message>
            <source>Screen</source>
            <translation>Bildschirm</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Suchen</translation>
        </message>
        <message>
            <source>Secret</source>
            <translation>Geheimnis</translation>
        </message>
        <message>
            <source>Segment</source>
            <translation>Segment</translation>
        </message>
        <message>
            <source>Segments</source>
            <translation>Segmente</translation>
        </message>
        <message>
            <source>Send a test event</source>
            <translation>Testereignis senden</translation>
        </message>
        <message>
            <source>Send at</source>
            <translation>Senden am</translation>
        </message>
        <message>
            <source>Send campaign</source>
            <translation>Kampagne senden</translation>
        </message>
        <message>
            <source>Send for signature</source>
            <translation>Zur Unterschrift senden</translation>
        </message>
        <message>
            <source>Send invitation again</source>
            <translation>Einladung erneut senden</translation>
        </message>
        <message>
            <source>Sender</source>
            <translation>Absender</translation>
        </message>
        <message>
            <source>Sends</source>
            <translation>Sendungen</translation>
        </message>
        <message>
            <source>Sent</source>
            <translation>Gesendet</translation>
        </message>
        <message>
            <source>Sent at</source>
            <translation>Gesendet am</translation>
        </message>
        <message>
            <source>Sequence</source>
            <translation>Folgenummer</translation>
        </message>
        <message>
            <source>Serial</source>
            <translation>Seriennummer</translation>
        </message>
        <message>
            <source>Serial number</source>
            <translation>Seriennummer</translation>
        </message>
        <message>
            <source>Serials</source>
            <translation>Seriennummern</translation>
        </message>
        <message>
            <source>Set</source>
            <translation>Gesetzt</translation>
        </message>
        <message>
            <source>Set once</source>
            <translation>Einmal gesetzt</translation>
        </message>
        <message>
            <source>Set product image</source>
            <translation>Artikelbild festlegen</translation>
        </message>
        <message>
            <source>Set product translation</source>
            <translation>Artikelübersetzung festlegen</translation>
        </message>
        <message>
            <source>Settle dispute</source>
            <translation>Einspruch entscheiden</translation>
        </message>
        <message>
            <source>Setup minutes</source>
            <translation>Rüstzeit (Minuten)</translation>
        </message>
        <message>
            <source>Severity</source>
            <translation>Schweregrad</translation>
        </message>
        <message>
            <source>Share</source>
            <translation>Anteil</translation>
        </message>
        <message>
            <source>Shift</source>
            <translation>Schicht</translation>
        </message>
        <message>
            <source>Shifts</source>
            <translation>Schichten</translation>
        </message>
        <message>
            <source>Ship lot</source>
            <translation>Charge versenden</translation>
        </message>
        <message>
            <source>Ship order</source>
            <translation>Auftrag versenden</translation>
        </message>
        <message>
            <source>Ship serial</source>
            <translation>Seriennummer versenden</translation>
        </message>
        <message>
            <source>Ship trade-in</source>
            <translation>Ankauf versenden</translation>
        </message>
        <message>
            <source>Ship transfer</source>
            <translation>Umlagerung versenden</translation>
        </message>
        <message>
            <source>Shipments</source>
            <translation>Sendungen</translation>
        </message>
        <message>
            <source>Shipped at</source>
            <translation>Versendet am</translation>
        </message>
        <message>
            <source>Shipping</source>
            <translation>Versand</translation>
        </message>
        <message>
            <source>Shipping address</source>
            <translation>Lieferadresse</translation>
        </message>
        <message>
            <source>Short code</source>
            <translation>Kurzcode</translation>
        </message>
        <message>
            <source>Sign in person</source>
            <translation>Persönlich unterschreiben</translation>
        </message>
        <message>
            <source>Signature</source>
            <translation>Unterschrift</translation>
        </message>
        <message>
            <source>Signature type</source>
            <translation>Art der Unterschrift</translation>
        </message>
        <message>
            <source>Signed SHA-256</source>
            <translation>SHA-256 des unterschriebenen Dokuments</translation>
        </message>
        <message>
            <source>Signed date</source>
            <translation>Unterschrieben am</translation>
        </message>
        <message>
            <source>Signer</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <source>Signers</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <source>Signing</source>
            <translation>Unterschriften</translation>
        </message>
        <message>
            <source>Signing order</source>
            <translation>Reihenfolge der Unterschriften</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>Slot</source>
            <translation>Fach</translation>
        </message>
        <message>
            <source>Sm</source>
            <translation>Sm</translation>
        </message>
        <message>
            <source>Sms</source>
            <translation>SMS</translation>
        </message>
        <message>
            <source>Sort</source>
            <translation>Sortierung</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <source>Specific limits</source>
            <translation>Spezifische Grenzwerte</translation>
        </message>
        <message>
            <source>Split order</source>
            <translation>Auftrag aufteilen</translation>
        </message>
        <message>
            <source>Start</source>
            <translation>Start</translation>
        </message>
        <message>
            <source>Start claim</source>
            <translation>Reklamation beginnen</translation>
        </message>
        <message>
            <source>Start formula</source>
            <translation>Rezeptur beginnen</translation>
        </message>
        <message>
            <source>Started at</source>
            <translation>Begonnen am</translation>
        </message>
        <message>
            <source>Starts on</source>
            <translation>Beginnt am</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Bundesstaat</translation>
        </message>
        <message>
            <source>Station</source>
            <translation>Station</translation>
        </message>
        <message>
            <source>Stationid</source>
            <translation>Station</translation>
        </message>
        <message>
            <source>Stations</source>
            <translation>Stationen</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Status since</source>
            <translation>Status seit</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>Schritte</translation>
        </message>
        <message>
            <source>Stock</source>
            <translation>Bestand</translation>
        </message>
        <message>
            <source>Stop sending</source>
            <translation>Versand stoppen</translation>
        </message>
        <message>
            <source>Style</source>
            <translation>Stil</translation>
        </message>
        <message>
            <source>Subject</source>
            <translation>Betreff</translation>
        </message>
        <message>
            <source>Subjects</source>
            <translation>Betreffzeilen</translation>
        </message>
        <message>
            <source>Submission</source>
            <translation>Einreichung</translation>
        </message>
        <message>
            <source>Submissions</source>
            <translation>Einreichungen</translation>
        </message>
        <message>
            <source>Submitted at</source>
            <translation>Eingereicht am</translation>
        </message>
        <message>
            <source>Subscription</source>
            <translation>Abonnement</translation>
        </message>
        <message>
            <source>Subscriptions</source>
            <translation>Abonnements</translation>
        </message>
        <message>
            <source>Suggested points</source>
            <translation>Vorgeschlagene Punkte</translation>
        </message>
        <message>
            <source>Supplier</source>
            <translation>Lieferant</translation>
        </message>
        <message>
            <source>Survey</source>
            <translation>Umfrage</translation>
        </message>
        <message>
            <source>Surveys</source>
            <translation>Umfragen</translation>
        </message>
        <message>
            <source>Suspend dealer</source>
            <translation>Händler sperren</translation>
        </message>
        <message>
            <source>Tag</source>
            <translation>Schlagwort</translation>
        </message>
        <message>
            <source>Tags</source>
            <translation>Schlagwörter</translation>
        </message>
        <message>
            <source>Target</source>
            <translation>Ziel</translation>
        </message>
        <message>
            <source>Target module</source>
            <translation>Zielmodul</translation>
        </message>
        <message>
            <source>Tax</source>
            <translation>Steuern</translation>
        </message>
        <message>
            <source>Tax classification</source>
            <translation>Steuerliche Einstufung</translation>
        </message>
        <message>
            <source>Tax collected</source>
            <translation>Vereinnahmte Steuer</translation>
        </message>
        <message>
            <source>Template</source>
            <translation>Vorlage</translation>
        </message>
        <message>
            <source>Templates</source>
            <translation>Vorlagen</translation>
        </message>
        <message>
            <source>Tenant</source>
            <translation>Mandant</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>Text</translation>
        </message>
        <message>
            <source>The PDF</source>
            <translation>Das PDF</translation>
        </message>
        <message>
            <source>The data erasure certificate of an inspected trade-in</source>
            <translation>Datenlöschzertifikat eines geprüften Ankaufs</translation>
        </message>
        <message>
            <source>The document as Markdown</source>
            <translation>Das Dokument als Markdown</translation>
        </message>
        <message>
            <source>The packing slip PDF</source>
            <translation>Der Lieferschein als PDF</translation>
        </message>
        <message>
            <source>The product's image</source>
            <translation>Das Artikelbild</translation>
        </message>
        <message>
            <source>The report's file</source>
            <translation>Die Berichtsdatei</translation>
        </message>
        <message>
            <source>Threshold</source>
            <translation>Schwellenwert</translation>
        </message>
        <message>
            <source>Ticket</source>
            <translation>Ticket</translation>
        </message>
        <message>
            <source>Tickets</source>
            <translation>Tickets</translation>
        </message>
        <message>
            <source>Tin masked</source>
            <translation>Steuernummer (maskiert)</translation>
        </message>
        <message>
            <source>Tin type</source>
            <translation>Art der Steuernummer</translation>
        </message>
        <message>
            <source>Title</source>
            <translation>Titel</translation>
        </message>
        <message>
            <source>To</source>
            <translation>Bis</translation>
        </message>
        <message>
            <source>To location</source>
            <translation>Nach Lagerplatz</translation>
        </message>
        <message>
            <source>Tool</source>
            <translation>Werkzeug</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>Summe</translation>
        </message>
        <message>
            <source>Total count</source>
            <translation>Gesamtzahl</translation>
        </message>
        <message>
            <source>Total points</source>
            <translation>Punkte gesamt</translation>
        </message>
        <message>
            <source>Total quantity</source>
            <translation>Gesamtmenge</translation>
        </message>
        <message>
            <source>Tracking</source>
            <translation>Sendungsverfolgung</translation>
        </message>
        <message>
            <source>Tracking number</source>
            <translation>Sendungsnummer</translation>
        </message>
        <message>
            <source>Trade-ins</source>
            <translation>Inzahlungnahmen</translation>
        </message>
        <message>
            <source>Transaction</source>
            <translation>Buchung</translation>
        </message>
        <message>
            <source>Transactions</source>
            <translation>Buchungen</translation>
        </message>
        <message>
            <source>Transfer</source>
            <translation>Umlagerung</translation>
        </message>
        <message>
            <source>Transfer warranty</source>
            <translation>Garantie übertragen</translation>
        </message>
        <message>
            <source>Transfers</source>
            <translation>Umlagerungen</translation>
        </message>
        <message>
            <source>Transit location</source>
            <translation>Transitlagerplatz</translation>
        </message>
        <message>
            <source>Translations</source>
            <translation>Übersetzungen</translation>
        </message>
        <message>
            <source>Trashed</source>
            <translation>Im Papierkorb</translation>
        </message>
        <message>
            <source>Trigger</source>
            <translation>Auslöser</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Typ</translation>
        </message>
        <message>
            <source>URL</source>
            <translation>URL</translation>
        </message>
        <message>
            <source>Unit</source>
            <translation>Einheit</translation>
        </message>
        <message>
            <source>Unit cost</source>
            <translation>Stückkosten</translation>
        </message>
        <message>
            <source>Unit count</source>
            <translation>Anzahl Einheiten</translation>
        </message>
        <message>
            <source>Units</source>
            <translation>Einheiten</translation>
        </message>
        <message>
            <source>Units per sale</source>
            <translation>Einheiten pro Verkauf</translation>
        </message>
        <message>
            <source>Unknown acute</source>
            <translation>Unbekannte akute Toxizität</translation>
        </message>
        <message>
            <source>Unpick order</source>
            <translation>Kommissionierung zurücknehmen</translation>
        </message>
        <message>
            <source>Unplanned stop seconds</source>
            <translation>Ungeplanter Stillstand (Sekunden)</translation>
        </message>
        <message>
            <source>Unrecorded seconds</source>
            <translation>Nicht erfasste Zeit (Sekunden)</translation>
        </message>
        <message>
            <source>Unsubscribed</source>
            <translation>Abgemeldet</translation>
        </message>
        <message>
            <source>Updated at</source>
            <translation>Geändert am</translation>
        </message>
        <message>
            <source>Webhook URL</source>
            <translation>Webhook-URL</translation>
        </message>
        <message>
            <source>User</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <source>Usermodules</source>
            <translation>Module des Benutzers</translation>
        </message>
        <message>
            <source>Users</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <source>Valid since</source>
            <translation>Gültig seit</translation>
        </message>
        <message>
            <source>Valid until</source>
            <translation>Gültig bis</translation>
        </message>
        <message>
            <source>Valuation</source>
            <translation>Bewertung</translation>
        </message>
        <message>
            <source>Valuations</source>
            <translation>Bewertungen</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>Wert</translation>
        </message>
        <message>
            <source>Values</source>
            <translation>Werte</translation>
        </message>
        <message>
            <source>Variants</source>
            <translation>Varianten</translation>
        </message>
        <message>
            <source>Verified</source>
            <translation>Geprüft</translation>
        </message>
        <message>
            <source>Verify W-9</source>
            <translation>W-9 prüfen</translation>
        </message>
        <message>
            <source>Versions</source>
            <translation>Versionen</translation>
        </message>
        <message>
            <source>Void reason</source>
            <translation>Grund der Ungültigmachung</translation>
        </message>
        <message>
            <source>Void warranty</source>
            <translation>Garantie für ungültig erklären</translation>
        </message>
        <message>
            <source>W9</source>
            <translation>W-9</translation>
        </message>
        <message>
            <source>Wait</source>
            <translation>Warten</translation>
        </message>
        <message>
            <source>Warranties</source>
            <translation>Garantien</translation>
        </message>
        <message>
            <source>Warranty</source>
            <translation>Garantie</translation>
        </message>
        <message>
            <source>Warranty months</source>
            <translation>Garantie (Monate)</translation>
        </message>
        <message>
            <source>Weight grams</source>
            <translation>Gewicht (Gramm)</translation>
        </message>
        <message>
            <source>Widgets</source>
            <translation>Kacheln</translation>
        </message>
        <message>
            <source>Width</source>
            <translation>Breite</translation>
        </message>
        <message>
            <source>Window days</source>
            <translation>Zeitfenster (Tage)</translation>
        </message>
        <message>
            <source>Withdraw reward</source>
            <translation>Prämie zurückziehen</translation>
        </message>
        <message>
            <source>Write off reason</source>
            <translation>Grund der Abschreibung</translation>
        </message>
        <message>
            <source>X</source>
            <translation>X</translation>
        </message>
        <message>
            <source>Y</source>
            <translation>Y</translation>
        </message>
        <message>
            <source>Zip</source>
            <translation>PLZ</translation>
        </message>
    </context>
</TS>
