<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>FieldPlacer</name>
        <message>
            <source>Signature</source>
            <translation>Unterschrift</translation>
        </message>
        <message>
            <source>Initials</source>
            <translation>Kürzel</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Email</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <source>Date</source>
            <translation>Datum</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>Text</translation>
        </message>
        <message>
            <source>Checkbox</source>
            <translation>Kontrollkästchen</translation>
        </message>
        <message>
            <source>Place fields</source>
            <translation>Felder platzieren</translation>
        </message>
        <message>
            <source>Signer</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <source>Kind of field</source>
            <translation>Art des Felds</translation>
        </message>
        <message>
            <source>Choose a signer and a kind of field, then click where it goes on the page.</source>
            <translation>Wählen Sie einen Unterzeichner und eine Feldart und klicken Sie dann auf die Stelle der Seite, an die das Feld gehört.</translation>
        </message>
        <message>
            <source>Field</source>
            <translation>Feld</translation>
        </message>
        <message>
            <source>Add a signer first (Add signer…), then place their fields.</source>
            <translation>Fügen Sie zuerst einen Unterzeichner hinzu (Unterzeichner hinzufügen…) und platzieren Sie dann seine Felder.</translation>
        </message>
        <message>
            <source>{kind} field placed on page {page}</source>
            <translation>Feld „{kind}“ auf Seite {page} platziert</translation>
        </message>
    </context>
    <context>
        <name>PageView</name>
        <message>
            <source>Page {number}</source>
            <translation>Seite {number}</translation>
        </message>
    </context>
    <context>
        <name>SignDialog</name>
        <message>
            <source>Sign: {document}</source>
            <translation>Unterschreiben: {document}</translation>
        </message>
        <message numerus="yes">
            <source>%n page(s)</source>
            <translation>
                <numerusform>%n Seite</numerusform>
                <numerusform>%n Seiten</numerusform>
            </translation>
        </message>
        <message>
            <source>Signing as &lt;b&gt;{name}&lt;/b&gt; · {pages} · the staff member beside you witnesses it</source>
            <translation>Unterschrift als &lt;b&gt;{name}&lt;/b&gt; · {pages} · die Mitarbeiterin oder der Mitarbeiter neben Ihnen ist Zeuge</translation>
        </message>
        <message>
            <source>I accept the terms above (page {page})</source>
            <translation>Ich akzeptiere die obigen Bedingungen (Seite {page})</translation>
        </message>
        <message>
            <source>Optional box (page {page})</source>
            <translation>Optionales Kästchen (Seite {page})</translation>
        </message>
        <message>
            <source>Required text, page {page}</source>
            <translation>Pflichttext, Seite {page}</translation>
        </message>
        <message>
            <source>Optional text, page {page}</source>
            <translation>Optionaler Text, Seite {page}</translation>
        </message>
        <message>
            <source>I agree to sign this document electronically; my signature here is as binding as on paper.</source>
            <translation>Ich bin einverstanden, dieses Dokument elektronisch zu unterschreiben; meine Unterschrift hier ist so verbindlich wie auf Papier.</translation>
        </message>
        <message>
            <source>&amp;Clear</source>
            <translation>&amp;Löschen</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>&amp;Sign</source>
            <translation>&amp;Unterschreiben</translation>
        </message>
        <message>
            <source>Signed. Thank you!</source>
            <translation>Unterschrieben. Vielen Dank!</translation>
        </message>
        <message>
            <source> The document is complete and sealed.</source>
            <translation> Das Dokument ist vollständig und versiegelt.</translation>
        </message>
        <message>
            <source>Signed</source>
            <translation>Unterschrieben</translation>
        </message>
        <message>
            <source>Not signed</source>
            <translation>Nicht unterschrieben</translation>
        </message>
    </context>
    <context>
        <name>SignaturePad</name>
        <message>
            <source>Signature pad: sign here</source>
            <translation>Unterschriftenfeld: hier unterschreiben</translation>
        </message>
        <message>
            <source>Sign here ✍</source>
            <translation>Hier unterschreiben ✍</translation>
        </message>
    </context>
    <context>
        <name>sign</name>
        <message>
            <source>Sign in person</source>
            <translation>Persönlich unterschreiben</translation>
        </message>
        <message>
            <source>“{title}” is a draft: send it for signature first, then its in-person signer signs here.</source>
            <translation>„{title}“ ist ein Entwurf: Senden Sie ihn zuerst zur Unterschrift, dann unterschreibt hier, wer persönlich unterzeichnet.</translation>
        </message>
        <message>
            <source>“{title}” is {state}: nobody signs it any more.</source>
            <translation>„{title}“ ist {state}: Niemand unterschreibt es mehr.</translation>
        </message>
        <message>
            <source>No signer of “{title}” signs in person: they sign from the mail. To sign here, add a signer with Add signer… and tick In person.</source>
            <translation>Kein Unterzeichner von „{title}“ unterschreibt persönlich: Sie unterschreiben aus der E-Mail. Um hier zu unterschreiben, fügen Sie mit „Unterzeichner hinzufügen…“ einen hinzu und haken Sie „Persönlich“ an.</translation>
        </message>
    </context>
</TS>
