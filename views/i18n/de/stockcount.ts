<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>StockCountWorkspace</name>
        <message>
            <source>Item</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <source>SKU</source>
            <translation>SKU</translation>
        </message>
        <message>
            <source>Barcode</source>
            <translation>Barcode</translation>
        </message>
        <message>
            <source>Book</source>
            <translation>Bestand</translation>
        </message>
        <message>
            <source>Counted</source>
            <translation>Gezählt</translation>
        </message>
        <message>
            <source>Difference</source>
            <translation>Differenz</translation>
        </message>
        <message>
            <source>Scan a location to start counting</source>
            <translation>Scannen Sie einen Lagerplatz, um mit dem Zählen zu beginnen</translation>
        </message>
        <message>
            <source>Scan a location, then its items</source>
            <translation>Lagerplatz scannen, dann seine Artikel</translation>
        </message>
        <message>
            <source>No location open</source>
            <translation>Kein Lagerplatz geöffnet</translation>
        </message>
        <message>
            <source>12* quantity key · F5 post the count · F6 ship · F7 receive · F8 slip of the selected transfer · Esc drop the count</source>
            <translation>12* Mengentaste · F5 Zählung buchen · F6 versenden · F7 annehmen · F8 Lieferschein der gewählten Umlagerung · Esc Zählung verwerfen</translation>
        </message>
        <message>
            <source>Transfers here</source>
            <translation>Umlagerungen hier</translation>
        </message>
        <message>
            <source>Scans this shift</source>
            <translation>Scans dieser Schicht</translation>
        </message>
        <message>
            <source>scanner</source>
            <translation>Scanner</translation>
        </message>
        <message>
            <source>keyboard</source>
            <translation>Tastatur</translation>
        </message>
        <message>
            <source>key</source>
            <translation>Taste</translation>
        </message>
        <message>
            <source>location</source>
            <translation>Lagerplatz</translation>
        </message>
        <message>
            <source>posting</source>
            <translation>Buchung</translation>
        </message>
        <message>
            <source>Something went wrong; it was logged.</source>
            <translation>Etwas ist schiefgelaufen; der Fehler wurde protokolliert.</translation>
        </message>
        <message>
            <source>A quantity from 1 to 100000, not {n}</source>
            <translation>Eine Menge von 1 bis 100000, nicht {n}</translation>
        </message>
        <message>
            <source>next scan counts {n}</source>
            <translation>nächster Scan zählt {n}</translation>
        </message>
        <message>
            <source>Quantity {n}: scan the item</source>
            <translation>Menge {n}: Scannen Sie den Artikel</translation>
        </message>
        <message>
            <source>location {loc.code}</source>
            <translation>Lagerplatz {loc.code}</translation>
        </message>
        <message>
            <source>✗ no location open</source>
            <translation>✗ kein Lagerplatz geöffnet</translation>
        </message>
        <message>
            <source>{code} is not a location: scan a location first</source>
            <translation>{code} ist kein Lagerplatz: Scannen Sie zuerst einen Lagerplatz</translation>
        </message>
        <message>
            <source>✗ unknown</source>
            <translation>✗ unbekannt</translation>
        </message>
        <message>
            <source>Unknown barcode {code}</source>
            <translation>Unbekannter Barcode {code}</translation>
        </message>
        <message numerus="yes">
            <source>{loc.code} · {loc.name} · %n items on the book</source>
            <translation>
                <numerusform>{loc.code} · {loc.name} · %n Artikel im Bestand</numerusform>
                <numerusform>{loc.code} · {loc.name} · %n Artikel im Bestand</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Post the count of {loc.code}: %n items, {differ} differ from the book?
The book is set to what was counted: this cannot be undone. (F5 again, or scanning {loc.code}, says yes.)</source>
            <translation>
                <numerusform>Zählung von {loc.code} buchen: %n Artikel, {differ} weichen vom Buchbestand ab?
Der Buchbestand wird auf das Gezählte gesetzt: Das lässt sich nicht rückgängig machen. (Erneut F5, oder {loc.code} scannen, bestätigt.)</numerusform>
                <numerusform>Zählung von {loc.code} buchen: %n Artikel, {differ} weichen vom Buchbestand ab?
Der Buchbestand wird auf das Gezählte gesetzt: Das lässt sich nicht rückgängig machen. (Erneut F5, oder {loc.code} scannen, bestätigt.)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>posted %n lines at {loc.code}</source>
            <translation>
                <numerusform>%n Position auf {loc.code} gebucht</numerusform>
                <numerusform>%n Positionen auf {loc.code} gebucht</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✓ Count of {loc.code} posted: %n items, {changed} adjusted</source>
            <translation>
                <numerusform>✓ Zählung von {loc.code} gebucht: %n Artikel, {changed} korrigiert</numerusform>
                <numerusform>✓ Zählung von {loc.code} gebucht: %n Artikel, {changed} korrigiert</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{counted} of %n items counted · {differ} differ from the book</source>
            <translation>
                <numerusform>{counted} von %n Artikel gezählt · {differ} weichen vom Buchbestand ab</numerusform>
                <numerusform>{counted} von %n Artikeln gezählt · {differ} weichen vom Buchbestand ab</numerusform>
            </translation>
        </message>
        <message>
            <source> · F5 posts the count</source>
            <translation> · F5 bucht die Zählung</translation>
        </message>
        <message>
            <source>Counting {loc.code}: scan each item</source>
            <translation>Zählung {loc.code}: Scannen Sie jeden Artikel</translation>
        </message>
        <message>
            <source>✓ {line.name}: {line.counted} counted, book {line.book} ({diff:+d})</source>
            <translation>✓ {line.name}: {line.counted} gezählt, Bestand {line.book} ({diff:+d})</translation>
        </message>
        <message>
            <source>kept: nothing changed</source>
            <translation>belassen: nichts geändert</translation>
        </message>
        <message>
            <source>Nothing changed</source>
            <translation>Nichts geändert</translation>
        </message>
        <message>
            <source>Nothing counted yet: scan a location, then its items</source>
            <translation>Noch nichts gezählt: Lagerplatz scannen, dann seine Artikel</translation>
        </message>
        <message>
            <source>Post this count?</source>
            <translation>Diese Zählung buchen?</translation>
        </message>
        <message>
            <source>Count dropped: nothing was posted</source>
            <translation>Zählung verworfen: Nichts wurde gebucht</translation>
        </message>
        <message>
            <source>ship to {value}</source>
            <translation>versenden an {value}</translation>
        </message>
        <message>
            <source>receive from {value}</source>
            <translation>annehmen von {value}</translation>
        </message>
        <message>
            <source>No transfer selected: open a location with transfers</source>
            <translation>Keine Umlagerung gewählt: Öffnen Sie einen Lagerplatz mit Umlagerungen</translation>
        </message>
        <message>
            <source>Could not save the slip: {exc.strerror}</source>
            <translation>Der Lieferschein konnte nicht gespeichert werden: {exc.strerror}</translation>
        </message>
        <message>
            <source>slip {value} printed</source>
            <translation>Lieferschein {value} gedruckt</translation>
        </message>
        <message>
            <source>Slip {value} printed on {target}: send it with the goods</source>
            <translation>Lieferschein {value} auf {target} gedruckt: Legen Sie ihn der Ware bei</translation>
        </message>
        <message>
            <source>slip {value} saved</source>
            <translation>Lieferschein {value} gespeichert</translation>
        </message>
        <message>
            <source>Slip {value} saved to {target}: print it and send it with the goods</source>
            <translation>Lieferschein {value} unter {target} gespeichert: Drucken Sie ihn aus und legen Sie ihn der Ware bei</translation>
        </message>
        <message>
            <source>Ship this transfer?</source>
            <translation>Diese Umlagerung versenden?</translation>
        </message>
        <message>
            <source>Receive this transfer?</source>
            <translation>Diese Umlagerung annehmen?</translation>
        </message>
        <message>
            <source>Ship {value} to {value2}: {what}?
The stock leaves this location now. (Scanning the slip again says yes.)</source>
            <translation>{value} nach {value2} versenden: {what}?
Der Bestand verlässt jetzt diesen Lagerort. (Erneut den Beleg scannen bestätigt.)</translation>
        </message>
        <message>
            <source>Receive {value} from {value2}: {what}?
The stock arrives here now. (Scanning the slip again says yes.)</source>
            <translation>{value} von {value2} annehmen: {what}?
Der Bestand kommt jetzt hier an. (Erneut den Beleg scannen bestätigt.)</translation>
        </message>
        <message>
            <source>kept {value}</source>
            <translation>{value} behalten</translation>
        </message>
        <message>
            <source>✓ transfer {verb}</source>
            <translation>✓ Umlagerung {verb}</translation>
        </message>
    </context>
    <context>
        <name>Workspaces</name>
        <message>
            <source>Stock count</source>
            <translation>Inventur</translation>
        </message>
    </context>
</TS>
