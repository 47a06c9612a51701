<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>QrDesignWorkspace</name>
        <message>
            <source>Pick a code on the left, or Ctrl+N for a new one</source>
            <translation>Wählen Sie links einen Code oder Strg+N für einen neuen</translation>
        </message>
        <message>
            <source>Codes</source>
            <translation>Codes</translation>
        </message>
        <message>
            <source>New code (Ctrl+N)</source>
            <translation>Neuer Code (Strg+N)</translation>
        </message>
        <message>
            <source>on</source>
            <translation>auf</translation>
        </message>
        <message>
            <source>H · 30%, for a logo</source>
            <translation>H · 30 %, für ein Logo</translation>
        </message>
        <message>
            <source>No logo</source>
            <translation>Kein Logo</translation>
        </message>
        <message>
            <source>Logo…</source>
            <translation>Logo…</translation>
        </message>
        <message>
            <source>C&amp;ontent</source>
            <translation>&amp;Inhalt</translation>
        </message>
        <message>
            <source>Logo</source>
            <translation>Logo</translation>
        </message>
        <message>
            <source>Save (Ctrl+S)</source>
            <translation>Speichern (Strg+S)</translation>
        </message>
        <message>
            <source>&amp;Name</source>
            <translation>&amp;Name</translation>
        </message>
        <message>
            <source>&amp;Destination</source>
            <translation>&amp;Ziel</translation>
        </message>
        <message>
            <source>D&amp;ynamic: the destination can change after printing</source>
            <translation>D&amp;ynamisch: Das Ziel kann sich nach dem Druck ändern</translation>
        </message>
        <message>
            <source>&amp;Template</source>
            <translation>&amp;Vorlage</translation>
        </message>
        <message>
            <source>&amp;Colours</source>
            <translation>&amp;Farben</translation>
        </message>
        <message>
            <source>&amp;Error correction</source>
            <translation>F&amp;ehlerkorrektur</translation>
        </message>
        <message>
            <source>&amp;Logo</source>
            <translation>&amp;Logo</translation>
        </message>
        <message>
            <source>Print (Ctrl+P)</source>
            <translation>Drucken (Strg+P)</translation>
        </message>
        <message>
            <source>SVG / PDF (Ctrl+E)</source>
            <translation>SVG / PDF (Strg+E)</translation>
        </message>
        <message>
            <source>Scans, last 30 days</source>
            <translation>Scans der letzten 30 Tage</translation>
        </message>
        <message>
            <source>dynamic</source>
            <translation>dynamisch</translation>
        </message>
        <message>
            <source>{kind} · {scans} scans</source>
            <translation>{kind} · {scans} Scans</translation>
        </message>
        <message>
            <source>(own style)</source>
            <translation>(eigener Stil)</translation>
        </message>
        <message>
            <source>this code</source>
            <translation>diesem Code</translation>
        </message>
        <message>
            <source>Discard the changes?</source>
            <translation>Änderungen verwerfen?</translation>
        </message>
        <message>
            <source>The changes to {code} are not saved. Discard them and start a new code?</source>
            <translation>Die Änderungen an {code} sind nicht gespeichert. Verwerfen und einen neuen Code beginnen?</translation>
        </message>
        <message>
            <source>Not discarded: Ctrl+S saves the changes</source>
            <translation>Nicht verworfen: Strg+S speichert die Änderungen</translation>
        </message>
        <message>
            <source>New code: give it a name and a destination, then Ctrl+S</source>
            <translation>Neuer Code: Geben Sie einen Namen und ein Ziel ein, dann Strg+S</translation>
        </message>
        <message>
            <source>https://… where a scan goes</source>
            <translation>https://… wohin ein Scan führt</translation>
        </message>
        <message>
            <source>Text, a URL, mailto:, tel:, WIFI:…</source>
            <translation>Text, eine URL, mailto:, tel:, WIFI:…</translation>
        </message>
        <message>
            <source>Logo set</source>
            <translation>Logo gesetzt</translation>
        </message>
        <message>
            <source>A logo for the code</source>
            <translation>Ein Logo für den Code</translation>
        </message>
        <message>
            <source>Images (*.png *.jpg *.jpeg)</source>
            <translation>Bilder (*.png *.jpg *.jpeg)</translation>
        </message>
        <message>
            <source>Cannot draw this</source>
            <translation>Lässt sich nicht zeichnen</translation>
        </message>
        <message>
            <source>Carries: {data}</source>
            <translation>Enthält: {data}</translation>
        </message>
        <message>
            <source>colours too close (contrast {ratio}:1)</source>
            <translation>Farben zu ähnlich (Kontrast {ratio}:1)</translation>
        </message>
        <message>
            <source>the logo hides too much</source>
            <translation>das Logo verdeckt zu viel</translation>
        </message>
        <message>
            <source>the logo hides too much: use H</source>
            <translation>das Logo verdeckt zu viel: Stufe H verwenden</translation>
        </message>
        <message>
            <source>✗ Phones will not read this code</source>
            <translation>✗ Telefone können diesen Code nicht lesen</translation>
        </message>
        <message>
            <source>⚠ Reads here, but the contrast is low ({ratio}:1): darker on lighter is safer</source>
            <translation>⚠ Hier lesbar, aber der Kontrast ist gering ({ratio}:1): Dunkel auf Hell ist sicherer</translation>
        </message>
        <message>
            <source>⚠ Reads here, but a logo needs error correction H to be safe</source>
            <translation>⚠ Hier lesbar, aber ein Logo braucht Fehlerkorrektur H, um sicher zu sein</translation>
        </message>
        <message>
            <source>✓ Reads back correctly</source>
            <translation>✓ Wird korrekt zurückgelesen</translation>
        </message>
        <message>
            <source>✓ Saved {name}</source>
            <translation>✓ {name} gespeichert</translation>
        </message>
        <message>
            <source>Not saved</source>
            <translation>Nicht gespeichert</translation>
        </message>
        <message>
            <source>Destination not saved</source>
            <translation>Ziel nicht gespeichert</translation>
        </message>
        <message>
            <source>Nothing to print yet: pick or design a code</source>
            <translation>Noch nichts zu drucken: Wählen oder gestalten Sie einen Code</translation>
        </message>
        <message>
            <source>✓ Sent {code} to {printer}</source>
            <translation>✓ {code} an {printer} gesendet</translation>
        </message>
        <message>
            <source>the code</source>
            <translation>den Code</translation>
        </message>
        <message>
            <source>the printer</source>
            <translation>den Drucker</translation>
        </message>
        <message>
            <source>Save the code</source>
            <translation>Code speichern</translation>
        </message>
        <message>
            <source>{scans} scans · {unique} unique · {bots} bots (not counted)</source>
            <translation>{scans} Scans · {unique} eindeutig · {bots} Bots (nicht gezählt)</translation>
        </message>
        <message>
            <source>Scans</source>
            <translation>Scans</translation>
        </message>
        <message>
            <source>web address</source>
            <translation>Webadresse</translation>
        </message>
        <message>
            <source>text</source>
            <translation>Text</translation>
        </message>
        <message>
            <source>e-mail</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <source>phone call</source>
            <translation>Anruf</translation>
        </message>
        <message>
            <source>text message</source>
            <translation>SMS</translation>
        </message>
        <message>
            <source>contact card</source>
            <translation>Visitenkarte</translation>
        </message>
        <message>
            <source>Wi-Fi</source>
            <translation>WLAN</translation>
        </message>
    </context>
    <context>
        <name>ScanChart</name>
        <message>
            <source>{scans} scans over {days} days</source>
            <translation>{scans} Scans in {days} Tagen</translation>
        </message>
        <message>
            <source>no scans yet</source>
            <translation>noch keine Scans</translation>
        </message>
        <message>
            <source>No scans in these 30 days</source>
            <translation>Keine Scans in diesen 30 Tagen</translation>
        </message>
        <message numerus="yes">
            <source>%n scans · busiest {day}: {scans}</source>
            <translation>
                <numerusform>%n Scan · meiste am {day}: {scans}</numerusform>
                <numerusform>%n Scans · meiste am {day}: {scans}</numerusform>
            </translation>
        </message>
    </context>
</TS>
