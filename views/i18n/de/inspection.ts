<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Answer</name>
    <message>
        <source>Not checked yet: press to answer yes, again for no</source>
        <translation>Noch nicht geprüft: Einmal drücken für Ja, nochmals für Nein</translation>
    </message>
</context>
<context>
    <name>InspectionWorkspace</name>
    <message>
        <source>Scan a kit barcode (F2)</source>
        <translation>Kit-Barcode scannen (F2)</translation>
    </message>
    <message>
        <source>Attach &amp;photo… (Ctrl+P)</source>
        <translation>F&amp;oto anhängen… (Strg+P)</translation>
    </message>
    <message>
        <source>&amp;Take photo</source>
        <translation>Foto &amp;aufnehmen</translation>
    </message>
    <message>
        <source>Enter or double-click: see the photo large</source>
        <translation>Enter oder Doppelklick: Foto groß anzeigen</translation>
    </message>
    <message>
        <source>Grading checklist</source>
        <translation>Prüfliste</translation>
    </message>
    <message>
        <source>Powers &amp;on</source>
        <translation>Lässt sich &amp;einschalten</translation>
    </message>
    <message>
        <source>All &amp;functions work</source>
        <translation>Alle &amp;Funktionen gehen</translation>
    </message>
    <message>
        <source>Account &amp;lock removed</source>
        <translation>Konto&amp;sperre entfernt</translation>
    </message>
    <message>
        <source>Data &amp;wiped</source>
        <translation>Daten ge&amp;löscht</translation>
    </message>
    <message>
        <source>A&amp;ccessories included</source>
        <translation>&amp;Zubehör dabei</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>Suggested grade</source>
        <translation>Vorgeschlagene Bewertung</translation>
    </message>
    <message>
        <source>&amp;Screen</source>
        <translation>&amp;Display</translation>
    </message>
    <message>
        <source>&amp;Body</source>
        <translation>&amp;Gehäuse</translation>
    </message>
    <message>
        <source>Batter&amp;y health</source>
        <translation>Akkuzus&amp;tand</translation>
    </message>
    <message>
        <source>&amp;Grade</source>
        <translation>Be&amp;wertung</translation>
    </message>
    <message>
        <source>&amp;Notes</source>
        <translation>&amp;Hinweise</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>Angebot</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Send offer (Ctrl+O)</source>
        <translation>Angebot senden (Strg+O)</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>valid for</source>
        <translation>gültig für</translation>
    </message>
    <message>
        <source>&amp;Receive parcel (Ctrl+R)</source>
        <translation>Paket anneh&amp;men (Strg+R)</translation>
    </message>
    <message>
        <source>Complete inspection (Ctrl+Enter)</source>
        <translation>Prüfung abschließen (Strg+Enter)</translation>
    </message>
    <message>
        <source>Customer &amp;declined</source>
        <translation>Kunde hat a&amp;bgelehnt</translation>
    </message>
    <message>
        <source>Re&amp;ject</source>
        <translation>Zu&amp;rückweisen</translation>
    </message>
    <message>
        <source>Customer signs agreement…</source>
        <translation>Kunde unterschreibt Vertrag…</translation>
    </message>
    <message>
        <source>To review</source>
        <translation>Zu sichten</translation>
    </message>
    <message>
        <source>To receive</source>
        <translation>Anzunehmen</translation>
    </message>
    <message>
        <source>To inspect</source>
        <translation>Zu prüfen</translation>
    </message>
    <message>
        <source>Waiting for customer</source>
        <translation>Wartet auf Kunden</translation>
    </message>
    <message>
        <source>Scan a kit barcode to open a trade-in</source>
        <translation>Scannen Sie einen Kit-Barcode, um einen Ankauf zu öffnen</translation>
    </message>
    <message>
        <source>{value}  ·  {s.serial_number}
{status} · declared {condition} · {value2}</source>
        <translation>{value}  ·  {s.serial_number}
{status} · angegeben {condition} · {value2}</translation>
    </message>
    <message>
        <source>trade-in opened</source>
        <translation>Ankauf geöffnet</translation>
    </message>
    <message>
        <source>No trade-in open</source>
        <translation>Kein Ankauf geöffnet</translation>
    </message>
    <message>
        <source>Scan a kit barcode or pick one from the queue.</source>
        <translation>Scannen Sie einen Kit-Barcode oder wählen Sie einen aus der Warteschlange.</translation>
    </message>
    <message>
        <source>{value} · SN {sub.serial_number}</source>
        <translation>{value} · SN {sub.serial_number}</translation>
    </message>
    <message>
        <source>Graded: {graded} (suggested {suggested})
{value}</source>
        <translation>Bewertet: {graded} (vorgeschlagen {suggested})
{value}</translation>
    </message>
    <message>
        <source>Revised offer of {value} (below the accepted {value2})</source>
        <translation>Geändertes Angebot über {value} (unter den angenommenen {value2})</translation>
    </message>
    <message>
        <source>Completes: credit {value}</source>
        <translation>Abschluss: Gutschrift {value}</translation>
    </message>
    <message>
        <source>Offer of {value} sent</source>
        <translation>Angebot über {value} gesendet</translation>
    </message>
    <message>
        <source>Revised offer of {value} sent to the customer</source>
        <translation>Geändertes Angebot über {value} an den Kunden gesendet</translation>
    </message>
    <message>
        <source>Completed: credit {value} issued</source>
        <translation>Abgeschlossen: Gutschrift {value} erteilt</translation>
    </message>
    <message>
        <source>Press &amp;again: credit {value}</source>
        <translation>&amp;Nochmals drücken: Gutschrift {value}</translation>
    </message>
    <message>
        <source>The customer accepted {value}? Press again to issue the credit.</source>
        <translation>Hat der Kunde {value} angenommen? Nochmals drücken, um die Gutschrift zu erteilen.</translation>
    </message>
    <message>
        <source>No valuation for this product</source>
        <translation>Keine Bewertung für diesen Artikel</translation>
    </message>
    <message>
        <source>Opened {value} · {sub.serial_number} ({status})</source>
        <translation>Geöffnet: {value} · {sub.serial_number} ({status})</translation>
    </message>
    <message>
        <source> · kit {code}</source>
        <translation> · Kit {code}</translation>
    </message>
    <message>
        <source>Status: {status}{kit}{who}
{sub.description}</source>
        <translation>Status: {status}{kit}{who}
{sub.description}</translation>
    </message>
    <message>
        <source>customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>inspection</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Declared: {condition}
{value}</source>
        <translation>Angegeben: {condition}
{value}</translation>
    </message>
    <message>
        <source>Ask an admin to add a valuation for this product.</source>
        <translation>Bitten Sie einen Administrator, eine Bewertung für diesen Artikel anzulegen.</translation>
    </message>
    <message>
        <source>Graded: {condition}
{value}</source>
        <translation>Bewertet: {condition}
{value}</translation>
    </message>
    <message>
        <source>Why: {reasons}</source>
        <translation>Warum: {reasons}</translation>
    </message>
    <message>
        <source>No defects found.</source>
        <translation>Keine Mängel gefunden.</translation>
    </message>
    <message>
        <source>Not graded yet
{value}</source>
        <translation>Noch nicht bewertet
{value}</translation>
    </message>
    <message>
        <source>Graded: not yet
{count} of {count2} items to check</source>
        <translation>Bewertet: noch nicht
{count} von {count2} Punkten zu prüfen</translation>
    </message>
    <message>
        <source>To check: {items}</source>
        <translation>Zu prüfen: {items}</translation>
    </message>
    <message>
        <source>Cannot complete: {why}</source>
        <translation>Abschluss nicht möglich: {why}</translation>
    </message>
    <message>
        <source>Parcel received: ready to inspect</source>
        <translation>Paket angenommen: bereit zur Prüfung</translation>
    </message>
    <message>
        <source>Check every item first: {items}</source>
        <translation>Prüfen Sie zuerst jeden Punkt: {items}</translation>
    </message>
    <message>
        <source>Recorded: the customer accepted</source>
        <translation>Erfasst: Der Kunde hat angenommen</translation>
    </message>
    <message>
        <source>Recorded: the customer declined</source>
        <translation>Erfasst: Der Kunde hat abgelehnt</translation>
    </message>
    <message>
        <source>Hand the screen to the customer to sign the agreement</source>
        <translation>Geben Sie dem Kunden den Bildschirm, um den Vertrag zu unterschreiben</translation>
    </message>
    <message>
        <source>Say why the trade-in is rejected</source>
        <translation>Geben Sie an, warum der Ankauf zurückgewiesen wird</translation>
    </message>
    <message>
        <source>Trade-in rejected</source>
        <translation>Ankauf zurückgewiesen</translation>
    </message>
    <message>
        <source>Photo: {label}</source>
        <translation>Foto: {label}</translation>
    </message>
</context>
<context>
    <name>Keys</name>
    <message>
        <source>scan a kit</source>
        <translation>Kit scannen</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>abschließen</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>annehmen</translation>
    </message>
    <message>
        <source>send offer</source>
        <translation>Angebot senden</translation>
    </message>
    <message>
        <source>attach photos</source>
        <translation>Fotos anhängen</translation>
    </message>
    <message>
        <source>refresh the queue</source>
        <translation>Warteschlange aktualisieren</translation>
    </message>
    <message>
        <source>close</source>
        <translation>schließen</translation>
    </message>
</context>
<context>
    <name>PhotoActions</name>
    <message>
        <source>Attach photos</source>
        <translation>Fotos anhängen</translation>
    </message>
    <message>
        <source>Photo {photo.filename} attached</source>
        <translation>Foto {photo.filename} angehängt</translation>
    </message>
</context>
<context>
    <name>PhotoViewer</name>
    <message>
        <source>This photo cannot be shown on this station.</source>
        <translation>Dieses Foto kann auf dieser Station nicht angezeigt werden.</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>S&amp;chließen</translation>
    </message>
</context>
<context>
    <name>Workspaces</name>
    <message>
        <source>Trade-in inspection</source>
        <translation>Ankaufsprüfung</translation>
    </message>
</context>
<context>
    <name>grading</name>
    <message>
        <source>— not checked —</source>
        <translation>— nicht geprüft —</translation>
    </message>
    <message>
        <source>flawless</source>
        <translation>einwandfrei</translation>
    </message>
    <message>
        <source>light scratches</source>
        <translation>leichte Kratzer</translation>
    </message>
    <message>
        <source>deep scratches</source>
        <translation>tiefe Kratzer</translation>
    </message>
    <message>
        <source>cracked</source>
        <translation>gesprungen</translation>
    </message>
    <message>
        <source>light wear</source>
        <translation>leichte Gebrauchsspuren</translation>
    </message>
    <message>
        <source>dents</source>
        <translation>Dellen</translation>
    </message>
    <message>
        <source>damaged</source>
        <translation>beschädigt</translation>
    </message>
    <message>
        <source>excellent</source>
        <translation>sehr gut</translation>
    </message>
    <message>
        <source>good</source>
        <translation>gut</translation>
    </message>
    <message>
        <source>fair</source>
        <translation>ordentlich</translation>
    </message>
    <message>
        <source>poor</source>
        <translation>mangelhaft</translation>
    </message>
</context>
<context>
    <name>layout</name>
    <message>
        <source>Notes for the customer</source>
        <translation>Hinweise für den Kunden</translation>
    </message>
    <message>
        <source>Reason to reject</source>
        <translation>Grund der Zurückweisung</translation>
    </message>
</context>
<context>
    <name>parts</name>
    <message>
        <source>powers on</source>
        <translation>lässt sich einschalten</translation>
    </message>
    <message>
        <source>functions</source>
        <translation>Funktionen</translation>
    </message>
    <message>
        <source>lock removed</source>
        <translation>Sperre entfernt</translation>
    </message>
    <message>
        <source>wiped</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>accessories</source>
        <translation>Zubehör</translation>
    </message>
    <message>
        <source>screen</source>
        <translation>Display</translation>
    </message>
    <message>
        <source>body</source>
        <translation>Gehäuse</translation>
    </message>
    <message>
        <source>battery</source>
        <translation>Akku</translation>
    </message>
    <message>
        <source>Completed: credit {value}</source>
        <translation>Abgeschlossen: Gutschrift {value}</translation>
    </message>
    <message>
        <source>Waiting for the customer: revised offer of {value}, open until {day}</source>
        <translation>Wartet auf den Kunden: geändertes Angebot über {value}, gültig bis {day}</translation>
    </message>
    <message>
        <source>Waiting for the customer: offer of {value}, open until {day}</source>
        <translation>Wartet auf den Kunden: Angebot über {value}, gültig bis {day}</translation>
    </message>
    <message>
        <source>Offer of {value}: {status} ({day})</source>
        <translation>Angebot über {value}: {status} ({day})</translation>
    </message>
    <message>
        <source>Status: {status}</source>
        <translation>Status: {status}</translation>
    </message>
</context>
</TS>
