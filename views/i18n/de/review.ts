<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Keys</name>
    <message>
        <source>approve</source>
        <translation>genehmigen</translation>
    </message>
    <message>
        <source>decline</source>
        <translation>ablehnen</translation>
    </message>
    <message>
        <source>go to receipts</source>
        <translation>zu den Belegen</translation>
    </message>
    <message>
        <source>go to dealer requests</source>
        <translation>zu den Händleranfragen</translation>
    </message>
    <message>
        <source>go to claims</source>
        <translation>zu den Garantiefällen</translation>
    </message>
    <message>
        <source>zoom in</source>
        <translation>vergrößern</translation>
    </message>
    <message>
        <source>zoom out</source>
        <translation>verkleinern</translation>
    </message>
    <message>
        <source>fit</source>
        <translation>einpassen</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>a reason is needed</source>
        <translation>ein Grund ist nötig</translation>
    </message>
</context>
<context>
    <name>ReviewWorkspace</name>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Pick an item; A approves, D declines</source>
        <translation>Wählen Sie einen Eintrag; A genehmigt, D lehnt ab</translation>
    </message>
    <message>
        <source>Receipts to review</source>
        <translation>Zu prüfende Belege</translation>
    </message>
    <message>
        <source>No image</source>
        <translation>Kein Bild</translation>
    </message>
    <message>
        <source>Receipt image</source>
        <translation>Bild des Belegs</translation>
    </message>
    <message>
        <source>Points to award</source>
        <translation>Zu vergebende Punkte</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <source>1 Receipts</source>
        <translation>1 Belege</translation>
    </message>
    <message>
        <source>Dealer requests</source>
        <translation>Händleranfragen</translation>
    </message>
    <message>
        <source>2 Dealer requests</source>
        <translation>2 Händleranfragen</translation>
    </message>
    <message>
        <source>Warranty claims</source>
        <translation>Garantiefälle</translation>
    </message>
    <message>
        <source>3 Warranty claims</source>
        <translation>3 Garantiefälle</translation>
    </message>
    <message>
        <source>duplicate?</source>
        <translation>Duplikat?</translation>
    </message>
    <message>
        <source>dealer</source>
        <translation>Händler</translation>
    </message>
    <message>
        <source>Nothing to review</source>
        <translation>Nichts zu prüfen</translation>
    </message>
    <message>
        <source>⚠ Same image or same numbers as another receipt</source>
        <translation>⚠ Gleiches Bild oder gleiche Zahlen wie ein anderer Beleg</translation>
    </message>
    <message>
        <source>Total {total}
Suggested {points} points</source>
        <translation>Summe {total}
Vorgeschlagen: {points} Punkte</translation>
    </message>
    <message>
        <source>Image not available (PDF or missing)</source>
        <translation>Bild nicht verfügbar (PDF oder fehlt)</translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation>Nichts ausgewählt</translation>
    </message>
    <message>
        <source>Say how many points to award</source>
        <translation>Geben Sie an, wie viele Punkte vergeben werden</translation>
    </message>
    <message>
        <source>Approved {retailer}: {points} points</source>
        <translation>Genehmigt: {retailer}, {points} Punkte</translation>
    </message>
    <message>
        <source>Approved {company}</source>
        <translation>Genehmigt: {company}</translation>
    </message>
    <message>
        <source>Started claim {serial}</source>
        <translation>Garantiefall {serial} begonnen</translation>
    </message>
    <message>
        <source>Closed claim {serial}</source>
        <translation>Garantiefall {serial} abgeschlossen</translation>
    </message>
    <message>
        <source>Close claim</source>
        <translation>Garantiefall abschließen</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Lösung</translation>
    </message>
    <message>
        <source>Declined {retailer}</source>
        <translation>Abgelehnt: {retailer}</translation>
    </message>
    <message>
        <source>Decline receipt</source>
        <translation>Beleg ablehnen</translation>
    </message>
    <message>
        <source>Reason the dealer will read</source>
        <translation>Grund (für den Händler sichtbar)</translation>
    </message>
    <message>
        <source>Declined {company}</source>
        <translation>Abgelehnt: {company}</translation>
    </message>
    <message>
        <source>Decline request</source>
        <translation>Anfrage ablehnen</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Cancelled claim {serial}</source>
        <translation>Garantiefall {serial} storniert</translation>
    </message>
    <message>
        <source>Cancel claim</source>
        <translation>Garantiefall stornieren</translation>
    </message>
</context>
</TS>
