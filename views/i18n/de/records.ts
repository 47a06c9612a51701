<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
    <context>
        <name>FileViewer</name>
        <message>
            <location filename="../../records/files.py" line="75" />
            <source>Save…</source>
            <translation>Speichern…</translation>
        </message>
        <message>
            <location filename="../../records/files.py" line="77" />
            <source>Print…</source>
            <translation>Drucken…</translation>
        </message>
        <message>
            <location filename="../../records/files.py" line="80" />
            <source>Close</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <location filename="../../records/files.py" line="93" />
            <source>Save</source>
            <translation>Speichern</translation>
        </message>
    </context>
    <context>
        <name>PairsInput</name>
        <message>
            <location filename="../../records/inputs.py" line="356" />
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <location filename="../../records/inputs.py" line="356" />
            <source>Value</source>
            <translation>Wert</translation>
        </message>
    </context>
    <context>
        <name>Palette</name>
        <message>
            <location filename="../../records/palette.py" line="42" />
            <location filename="../../records/palette.py" line="45" />
            <source>Find a record</source>
            <translation>Datensatz finden</translation>
        </message>
        <message>
            <location filename="../../records/palette.py" line="44" />
            <source>Order or ticket number, name, serial number…</source>
            <translation>Bestell- oder Ticketnummer, Name, Seriennummer…</translation>
        </message>
        <message>
            <location filename="../../records/palette.py" line="47" />
            <source>Records found</source>
            <translation>Gefundene Datensätze</translation>
        </message>
        <message>
            <location filename="../../records/palette.py" line="76" />
            <source>Searching…</source>
            <translation>Suche läuft…</translation>
        </message>
        <message numerus="yes">
            <location filename="../../records/palette.py" line="91" />
            <source>%Ln found</source>
            <translation>
                <numerusform>%Ln gefunden</numerusform>
                <numerusform>%Ln gefunden</numerusform>
            </translation>
        </message>
        <message>
            <location filename="../../records/palette.py" line="91" />
            <source>Nothing found</source>
            <translation>Nichts gefunden</translation>
        </message>
    </context>
    <context>
        <name>RecordsWorkspace</name>
        <message>
            <location filename="../../records/workspace.py" line="121" />
            <source>Modules and records</source>
            <translation>Module und Datensätze</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="136" />
            <source>Choose a kind of record</source>
            <translation>Art des Datensatzes wählen</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="140" />
            <source>Search</source>
            <translation>Suchen</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="141" />
            <source>Search records</source>
            <translation>Datensätze durchsuchen</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="148" />
            <source>New…</source>
            <translation>Neu…</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="150" />
            <source>Export CSV…</source>
            <translation>CSV exportieren…</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="153" />
            <source>Records</source>
            <translation>Datensätze</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="190" />
            <source>Copy id</source>
            <translation>ID kopieren</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="302" />
            <source>{field}: any</source>
            <translation>{field}: alle</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="344" />
            <source>This list sorts by {columns} only.</source>
            <translation>Diese Liste lässt sich nur nach {columns} sortieren.</translation>
        </message>
        <message numerus="yes">
            <location filename="../../records/workspace.py" line="351" />
            <source>%Ln records</source>
            <translation>
                <numerusform>%Ln Datensatz</numerusform>
                <numerusform>%Ln Datensätze</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <location filename="../../records/workspace.py" line="351" />
            <source>{loaded} of %Ln records</source>
            <translation>
                <numerusform>{loaded} von %Ln Datensatz</numerusform>
                <numerusform>{loaded} von %Ln Datensätzen</numerusform>
            </translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="393" />
            <source>Loading…</source>
            <translation>Wird geladen…</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="411" />
            <source>Select a record</source>
            <translation>Datensatz auswählen</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="455" />
            <source>Edit…</source>
            <translation>Bearbeiten…</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="463" />
            <source>Not possible while it is {status}</source>
            <translation>Nicht möglich im Status „{status}“</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="506" />
            <source>Edit</source>
            <translation>Bearbeiten</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="533" />
            <source>{action}? This cannot be undone.</source>
            <translation>{action}? Das lässt sich nicht rückgängig machen.</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="547" />
            <source>{action}: done</source>
            <translation>{action}: erledigt</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="601" />
            <source>Shown once</source>
            <translation>Nur einmal angezeigt</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="602" />
            <source>Copy it now: it is not shown again.</source>
            <translation>Jetzt kopieren: Der Wert wird nicht noch einmal angezeigt.</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="623" />
            <source>New {record}: choose the file</source>
            <translation>Neu ({record}): Datei wählen</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="635" />
            <source>New {record}</source>
            <translation>Neu: {record}</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="639" />
            <source>{record} created</source>
            <translation>Angelegt: {record}</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="652" />
            <source>Cannot read {file}: {reason}. Choose the file again.</source>
            <translation>{file} lässt sich nicht lesen: {reason}. Wählen Sie die Datei erneut.</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="660" />
            <source>New {record} from {file}</source>
            <translation>Neu ({record}) aus {file}</translation>
        </message>
        <message>
            <location filename="../../records/workspace.py" line="671" />
            <source>Export CSV</source>
            <translation>CSV exportieren</translation>
        </message>
        <message numerus="yes">
            <location filename="../../records/workspace.py" line="679" />
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
            <location filename="../../records/inputs.py" line="83" />
            <source>Loading…</source>
            <translation>Wird geladen…</translation>
        </message>
        <message>
            <location filename="../../records/inputs.py" line="102" />
            <source>Type a name or code</source>
            <translation>Name oder Code eingeben</translation>
        </message>
        <message>
            <location filename="../../records/inputs.py" line="102" />
            <source>Type the code</source>
            <translation>Code eingeben</translation>
        </message>
    </context>
    <context>
        <name>_Table</name>
        <message>
            <location filename="../../records/inputs.py" line="257" />
            <source>Add row</source>
            <translation>Zeile hinzufügen</translation>
        </message>
        <message>
            <location filename="../../records/inputs.py" line="258" />
            <source>Remove row</source>
            <translation>Zeile entfernen</translation>
        </message>
    </context>
    <context>
        <name>records</name>
        <message>
            <location filename="../../records/files.py" line="129" />
            <source>All files (*)</source>
            <translation>Alle Dateien (*)</translation>
        </message>
        <message>
            <location filename="../../records/forms.py" line="313" />
            <source>{field} (optional)</source>
            <translation>{field} (optional)</translation>
        </message>
        <message>
            <location filename="../../records/model.py" line="66" />
            <source>yes</source>
            <translation>ja</translation>
        </message>
        <message>
            <location filename="../../records/model.py" line="66" />
            <source>no</source>
            <translation>nein</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="98" />
            <source>{list}: reading…</source>
            <translation>{list}: wird gelesen…</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="109" />
            <source>%Ln more</source>
            <translation>%Ln weiterer|%Ln weitere</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="113" />
            <source>No {list} yet</source>
            <translation>Noch keine Einträge: {list}</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="131" />
            <source>Open this {record} (id {id})</source>
            <translation>Öffnen: {record} (ID {id})</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="150" />
            <location filename="../../records/refs.py" line="201" />
            <source>Copy id</source>
            <translation>ID kopieren</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="170" />
            <source>Copy</source>
            <translation>Kopieren</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="212" />
            <source>Open</source>
            <translation>Öffnen</translation>
        </message>
        <message>
            <location filename="../../records/refs.py" line="217" />
            <source>(gone)</source>
            <translation>(gelöscht)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="6" />
            <source>A trade-in's data erasure certificate</source>
            <translation>Datenlöschzertifikat einer Inzahlungnahme</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="7" />
            <source>API key</source>
            <translation>API-Schlüssel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="8" />
            <source>API keys</source>
            <translation>API-Schlüssel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="9" />
            <source>Ab test</source>
            <translation>A/B-Test</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="10" />
            <source>Accept filing</source>
            <translation>Meldung annehmen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="11" />
            <source>Accepted offer</source>
            <translation>Angenommenes Angebot</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="12" />
            <source>Accessories</source>
            <translation>Zubehör</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="13" />
            <source>Account lock removed</source>
            <translation>Kontosperre aufheben</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="14" />
            <source>Acknowledge alarm</source>
            <translation>Alarm quittieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="15" />
            <source>Acknowledged at</source>
            <translation>Quittiert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="16" />
            <source>Action</source>
            <translation>Aktion</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="17" />
            <source>Activate a subscription</source>
            <translation>Abonnement aktivieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="18" />
            <source>Active</source>
            <translation>Aktiv</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="19" />
            <source>Actor</source>
            <translation>Ausgeführt von</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="20" />
            <source>Add media</source>
            <translation>Medien hinzufügen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="21" />
            <source>Add signer</source>
            <translation>Unterzeichner hinzufügen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="22" />
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="23" />
            <source>Address1</source>
            <translation>Adresszeile 1</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="24" />
            <source>Address2</source>
            <translation>Adresszeile 2</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="25" />
            <source>Aftersale</source>
            <translation>Kundendienst</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="26" />
            <source>Alarm</source>
            <translation>Alarm</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="27" />
            <source>Alarms</source>
            <translation>Alarme</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="28" />
            <source>Alert</source>
            <translation>Warnung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="29" />
            <source>Alerts</source>
            <translation>Warnungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="30" />
            <source>Allergen</source>
            <translation>Allergen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="31" />
            <source>Allergens</source>
            <translation>Allergene</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="32" />
            <source>Allow negative</source>
            <translation>Negativbestand zulassen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="33" />
            <source>Allowed actions</source>
            <translation>Erlaubte Aktionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="34" />
            <source>Allowed states</source>
            <translation>Erlaubte Zustände</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="35" />
            <source>Amend</source>
            <translation>Ändern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="36" />
            <source>Amount</source>
            <translation>Betrag</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="37" />
            <source>Analytics</source>
            <translation>Auswertungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="38" />
            <source>Approve dealer</source>
            <translation>Händler freigeben</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="39" />
            <source>Approve filing</source>
            <translation>Meldung genehmigen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="40" />
            <source>Approved at</source>
            <translation>Genehmigt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="41" />
            <source>Assignee</source>
            <translation>Zuständig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="42" />
            <source>Assignee name</source>
            <translation>Name der zuständigen Person</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="43" />
            <source>At</source>
            <translation>Zeitpunkt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="44" />
            <source>Ate</source>
            <translation>ATE</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="45" />
            <source>Attachments</source>
            <translation>Anhänge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="46" />
            <source>Attempts</source>
            <translation>Versuche</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="47" />
            <source>Attributes</source>
            <translation>Attribute</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="48" />
            <source>Audit</source>
            <translation>Prüfprotokoll</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="49" />
            <source>Author</source>
            <translation>Verfasser</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="50" />
            <source>Authorise return</source>
            <translation>Rücksendung genehmigen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="51" />
            <source>Availability</source>
            <translation>Verfügbarkeit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="52" />
            <source>Available</source>
            <translation>Verfügbar</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="53" />
            <source>Backorder of</source>
            <translation>Nachlieferung zu</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="54" />
            <source>Backordered</source>
            <translation>Nachbestellt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="55" />
            <source>Balance</source>
            <translation>Saldo</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="56" />
            <source>Balance after</source>
            <translation>Saldo danach</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="57" />
            <source>Barcode</source>
            <translation>Barcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="58" />
            <source>Base value</source>
            <translation>Grundwert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="59" />
            <source>Battery health</source>
            <translation>Akkuzustand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="60" />
            <source>Below</source>
            <translation>Unter</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="61" />
            <source>Bg</source>
            <translation>Hintergrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="62" />
            <source>Billing address</source>
            <translation>Rechnungsadresse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="63" />
            <source>Blacklist status</source>
            <translation>Sperrlistenstatus</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="64" />
            <source>Body</source>
            <translation>Inhalt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="65" />
            <source>Boiling point c</source>
            <translation>Siedepunkt (°C)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="66" />
            <source>Bom</source>
            <translation>Stückliste</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="67" />
            <source>Boms</source>
            <translation>Stücklisten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="68" />
            <source>Border</source>
            <translation>Rand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="69" />
            <source>Bots</source>
            <translation>Bots</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="70" />
            <source>Bounced</source>
            <translation>Unzustellbar</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="71" />
            <source>Box</source>
            <translation>Karton</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="72" />
            <source>Bucket</source>
            <translation>Zeitraster</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="73" />
            <source>Business name</source>
            <translation>Firmenname</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="74" />
            <source>By machine</source>
            <translation>Nach Maschine</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="75" />
            <source>By shift</source>
            <translation>Nach Schicht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="76" />
            <source>Campaign</source>
            <translation>Kampagne</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="77" />
            <source>Campaigns</source>
            <translation>Kampagnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="78" />
            <source>Cancel claim</source>
            <translation>Reklamation stornieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="79" />
            <source>Cancel job</source>
            <translation>Auftrag abbrechen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="80" />
            <source>Cancel order</source>
            <translation>Bestellung stornieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="81" />
            <source>Cancel reason</source>
            <translation>Stornogrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="82" />
            <source>Cancel transfer</source>
            <translation>Umlagerung stornieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="83" />
            <source>Cancelled at</source>
            <translation>Storniert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="84" />
            <source>Carrier</source>
            <translation>Versanddienstleister</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="85" />
            <source>Carrier status</source>
            <translation>Status beim Versanddienstleister</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="86" />
            <source>Cas</source>
            <translation>CAS-Nummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="87" />
            <source>Catalog</source>
            <translation>Katalog</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="88" />
            <source>Catalogs</source>
            <translation>Kataloge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="89" />
            <source>Categories</source>
            <translation>Kategorien</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="90" />
            <source>Category</source>
            <translation>Kategorie</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="91" />
            <source>Category name</source>
            <translation>Kategoriename</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="92" />
            <source>Certificate</source>
            <translation>Zertifikat</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="93" />
            <source>Certificate PDF</source>
            <translation>Zertifikat (PDF)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="94" />
            <source>Certificates</source>
            <translation>Zertifikate</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="95" />
            <source>Certified at</source>
            <translation>Zertifiziert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="96" />
            <source>Change destination</source>
            <translation>Ziel ändern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="97" />
            <source>Changes</source>
            <translation>Änderungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="98" />
            <source>Channel</source>
            <translation>Kanal</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="99" />
            <source>Channels</source>
            <translation>Kanäle</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="100" />
            <source>Characters</source>
            <translation>Zeichen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="101" />
            <source>Chart</source>
            <translation>Diagramm</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="102" />
            <source>Checklist</source>
            <translation>Checkliste</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="103" />
            <source>Choices</source>
            <translation>Auswahlmöglichkeiten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="104" />
            <source>City</source>
            <translation>Ort</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="105" />
            <source>Claim</source>
            <translation>Reklamation</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="106" />
            <source>Claims</source>
            <translation>Reklamationen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="107" />
            <source>Cleared at</source>
            <translation>Behoben am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="108" />
            <source>Clicked</source>
            <translation>Geklickt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="109" />
            <source>Close claim</source>
            <translation>Reklamation abschließen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="110" />
            <source>Closed at</source>
            <translation>Geschlossen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="111" />
            <source>Code</source>
            <translation>Code</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="112" />
            <source>Codes</source>
            <translation>Codes</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="113" />
            <source>Company</source>
            <translation>Firma</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="114" />
            <source>Complete</source>
            <translation>Vollständig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="115" />
            <source>Complete products</source>
            <translation>Vollständige Produkte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="116" />
            <source>Complete transfer</source>
            <translation>Umlagerung abschließen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="117" />
            <source>Completed</source>
            <translation>Abgeschlossen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="118" />
            <source>Completed at</source>
            <translation>Abgeschlossen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="119" />
            <source>Completeness</source>
            <translation>Vollständigkeit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="120" />
            <source>Components</source>
            <translation>Komponenten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="121" />
            <source>Compute allergens</source>
            <translation>Allergene berechnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="122" />
            <source>Condition</source>
            <translation>Zustand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="123" />
            <source>Consent</source>
            <translation>Einwilligung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="124" />
            <source>Contact</source>
            <translation>Kontakt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="125" />
            <source>Contacts</source>
            <translation>Kontakte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="126" />
            <source>Content</source>
            <translation>Inhalt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="127" />
            <source>Content type</source>
            <translation>Inhaltstyp</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="128" />
            <source>Count</source>
            <translation>Anzahl</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="129" />
            <source>Counted</source>
            <translation>Gezählt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="130" />
            <source>Counted at</source>
            <translation>Gezählt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="131" />
            <source>Country</source>
            <translation>Land</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="132" />
            <source>Coverage until</source>
            <translation>Abgedeckt bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="133" />
            <source>Created at</source>
            <translation>Angelegt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="134" />
            <source>Createdat</source>
            <translation>Angelegt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="135" />
            <source>Credit</source>
            <translation>Gutschrift</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="136" />
            <source>Currency</source>
            <translation>Währung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="137" />
            <source>Current offer</source>
            <translation>Aktuelles Angebot</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="138" />
            <source>Custom fields</source>
            <translation>Eigene Felder</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="139" />
            <source>Customer</source>
            <translation>Kunde</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="140" />
            <source>Customer email</source>
            <translation>E-Mail des Kunden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="141" />
            <source>Customer name</source>
            <translation>Kundenname</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="142" />
            <source>Customers</source>
            <translation>Kunden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="143" />
            <source>Dashboard</source>
            <translation>Dashboard</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="144" />
            <source>Dashboards</source>
            <translation>Dashboards</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="145" />
            <source>Data</source>
            <translation>Daten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="146" />
            <source>Data wiped</source>
            <translation>Daten gelöscht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="147" />
            <source>Date</source>
            <translation>Datum</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="148" />
            <source>Days</source>
            <translation>Tage</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="149" />
            <source>Days left</source>
            <translation>Verbleibende Tage</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="150" />
            <source>Deactivate a subscription</source>
            <translation>Abonnement deaktivieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="151" />
            <source>Dealer</source>
            <translation>Händler</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="152" />
            <source>Dealer name</source>
            <translation>Händlername</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="153" />
            <source>Decided at</source>
            <translation>Entschieden am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="154" />
            <source>Decision</source>
            <translation>Entscheidung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="155" />
            <source>Declared value</source>
            <translation>Angegebener Wert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="156" />
            <source>Decline dealer</source>
            <translation>Händler ablehnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="157" />
            <source>Decline reason</source>
            <translation>Ablehnungsgrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="158" />
            <source>Delete QR code</source>
            <translation>QR-Code löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="159" />
            <source>Delete a subscription</source>
            <translation>Abonnement löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="160" />
            <source>Delete alert</source>
            <translation>Warnung löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="161" />
            <source>Delete barcode</source>
            <translation>Barcode löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="162" />
            <source>Delete contact</source>
            <translation>Kontakt löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="163" />
            <source>Delete dashboard</source>
            <translation>Dashboard löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="164" />
            <source>Delete document</source>
            <translation>Dokument löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="165" />
            <source>Delete earning rule</source>
            <translation>Punkteregel löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="166" />
            <source>Delete folder</source>
            <translation>Ordner löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="167" />
            <source>Delete list</source>
            <translation>Liste löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="168" />
            <source>Delete or void document</source>
            <translation>Dokument löschen oder ungültig machen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="169" />
            <source>Delete template</source>
            <translation>Vorlage löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="170" />
            <source>Delete valuations</source>
            <translation>Bewertungen löschen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="171" />
            <source>Deleted at</source>
            <translation>Gelöscht am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="172" />
            <source>Delivered at</source>
            <translation>Zugestellt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="173" />
            <source>Deliveries</source>
            <translation>Zustellungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="174" />
            <source>Delta</source>
            <translation>Differenz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="175" />
            <source>Depth</source>
            <translation>Tiefe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="176" />
            <source>Description</source>
            <translation>Beschreibung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="177" />
            <source>Destination url</source>
            <translation>Ziel-URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="178" />
            <source>Detail</source>
            <translation>Details</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="179" />
            <source>Dimensions</source>
            <translation>Abmessungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="180" />
            <source>Disabled</source>
            <translation>Deaktiviert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="181" />
            <source>Disabled at</source>
            <translation>Deaktiviert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="182" />
            <source>Disabled reason</source>
            <translation>Grund der Deaktivierung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="183" />
            <source>Disputes</source>
            <translation>Einsprüche</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="184" />
            <source>Doc categories</source>
            <translation>Dokumentkategorien</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="185" />
            <source>Doc category</source>
            <translation>Dokumentkategorie</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="186" />
            <source>Docs</source>
            <translation>Dokumente</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="187" />
            <source>Document</source>
            <translation>Dokument</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="188" />
            <source>Documents</source>
            <translation>Dokumente</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="189" />
            <source>Done</source>
            <translation>Erledigt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="190" />
            <source>Download a generated PDF catalog</source>
            <translation>Erstellten PDF-Katalog herunterladen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="191" />
            <source>Download as PNG, SVG or PDF</source>
            <translation>Als PNG, SVG oder PDF herunterladen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="192" />
            <source>Download url</source>
            <translation>Download-URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="193" />
            <source>Duplicate of</source>
            <translation>Duplikat von</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="194" />
            <source>Dynamic</source>
            <translation>Dynamisch</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="195" />
            <source>Earning rule</source>
            <translation>Punkteregel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="196" />
            <source>Earning rules</source>
            <translation>Punkteregeln</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="197" />
            <source>Effective from</source>
            <translation>Gültig ab</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="198" />
            <source>Effective to</source>
            <translation>Gültig bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="199" />
            <source>Email</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="200" />
            <source>Enabled</source>
            <translation>Aktiviert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="201" />
            <source>Encoding</source>
            <translation>Codierung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="202" />
            <source>End</source>
            <translation>Ende</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="203" />
            <source>Ended at</source>
            <translation>Beendet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="204" />
            <source>Ends on</source>
            <translation>Endet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="205" />
            <source>Enrolled</source>
            <translation>Angemeldet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="206" />
            <source>Environment</source>
            <translation>Umwelt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="207" />
            <source>Erasure</source>
            <translation>Datenlöschung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="208" />
            <source>Error</source>
            <translation>Fehler</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="209" />
            <source>Error correction</source>
            <translation>Fehlerkorrektur</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="210" />
            <source>Evaluate formula</source>
            <translation>Rezeptur bewerten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="211" />
            <source>Event</source>
            <translation>Ereignis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="212" />
            <source>Event type</source>
            <translation>Ereignistyp</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="213" />
            <source>Event types</source>
            <translation>Ereignistypen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="214" />
            <source>Events</source>
            <translation>Ereignisse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="215" />
            <source>Every</source>
            <translation>Alle</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="216" />
            <source>Exempt</source>
            <translation>Befreit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="217" />
            <source>Exempt percentage</source>
            <translation>Befreiter Anteil (%)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="218" />
            <source>Exemption number</source>
            <translation>Befreiungsnummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="219" />
            <source>Expiration date</source>
            <translation>Ablaufdatum</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="220" />
            <source>Expires at</source>
            <translation>Läuft ab am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="221" />
            <source>External id</source>
            <translation>Externe ID</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="222" />
            <source>External number</source>
            <translation>Externe Nummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="223" />
            <source>Face value</source>
            <translation>Nennwert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="224" />
            <source>Fail formula</source>
            <translation>Rezeptur als nicht bestanden markieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="225" />
            <source>Failed</source>
            <translation>Fehlgeschlagen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="226" />
            <source>Fallback url</source>
            <translation>Ausweich-URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="227" />
            <source>Families</source>
            <translation>Attributfamilien</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="228" />
            <source>Family</source>
            <translation>Attributfamilie</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="229" />
            <source>Fg</source>
            <translation>Vordergrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="230" />
            <source>Field</source>
            <translation>Feld</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="231" />
            <source>Fields</source>
            <translation>Felder</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="232" />
            <source>File</source>
            <translation>Datei</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="233" />
            <source>File filing</source>
            <translation>Meldung einreichen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="234" />
            <source>Filed at</source>
            <translation>Eingereicht am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="235" />
            <source>Filename</source>
            <translation>Dateiname</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="236" />
            <source>Filing</source>
            <translation>Steuermeldung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="237" />
            <source>Filings</source>
            <translation>Steuermeldungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="238" />
            <source>Filter</source>
            <translation>Filter</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="239" />
            <source>Filters</source>
            <translation>Filter</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="240" />
            <source>Finished at</source>
            <translation>Fertig am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="241" />
            <source>Fired at</source>
            <translation>Ausgelöst am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="242" />
            <source>First at</source>
            <translation>Erstmals am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="243" />
            <source>First response at</source>
            <translation>Erste Antwort am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="244" />
            <source>First response due</source>
            <translation>Erste Antwort fällig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="245" />
            <source>Flash point c</source>
            <translation>Flammpunkt (°C)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="246" />
            <source>Flow</source>
            <translation>Ablauf</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="247" />
            <source>Flows</source>
            <translation>Abläufe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="248" />
            <source>Folder</source>
            <translation>Ordner</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="249" />
            <source>Folders</source>
            <translation>Ordner</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="250" />
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="251" />
            <source>Formula</source>
            <translation>Rezeptur</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="252" />
            <source>Formulas</source>
            <translation>Rezepturen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="253" />
            <source>Frequency</source>
            <translation>Häufigkeit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="254" />
            <source>From</source>
            <translation>Von</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="255" />
            <source>From </source>
            <translation>Von </translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="256" />
            <source>From location</source>
            <translation>Von Lagerplatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="257" />
            <source>Fulfillment</source>
            <translation>Versand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="258" />
            <source>Functions</source>
            <translation>Funktionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="259" />
            <source>Good</source>
            <translation>Gut</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="260" />
            <source>Good count</source>
            <translation>Gutteile</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="261" />
            <source>Grace seconds</source>
            <translation>Karenzzeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="262" />
            <source>Graded condition</source>
            <translation>Bewerteter Zustand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="263" />
            <source>Group</source>
            <translation>Gruppe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="264" />
            <source>Group by</source>
            <translation>Gruppieren nach</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="265" />
            <source>Gtin</source>
            <translation>GTIN</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="266" />
            <source>Has file</source>
            <translation>Mit Datei</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="267" />
            <source>Has image</source>
            <translation>Mit Bild</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="268" />
            <source>Hazards</source>
            <translation>Gefahren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="269" />
            <source>Height</source>
            <translation>Höhe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="270" />
            <source>Html</source>
            <translation>HTML</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="271" />
            <source>Id</source>
            <translation>ID</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="272" />
            <source>Ideal cycle seconds</source>
            <translation>Idealzykluszeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="273" />
            <source>Ideal seconds</source>
            <translation>Idealzeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="274" />
            <source>Image</source>
            <translation>Bild</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="275" />
            <source>Image url</source>
            <translation>Bild-URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="276" />
            <source>Imei</source>
            <translation>IMEI</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="277" />
            <source>In person</source>
            <translation>Persönlich</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="278" />
            <source>Inbound</source>
            <translation>Eingang</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="279" />
            <source>Inci</source>
            <translation>INCI</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="280" />
            <source>Include children</source>
            <translation>Unterordner einbeziehen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="281" />
            <source>Incomplete</source>
            <translation>Unvollständig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="282" />
            <source>Ingredient</source>
            <translation>Inhaltsstoff</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="283" />
            <source>Ingredients</source>
            <translation>Inhaltsstoffe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="284" />
            <source>Inhalation form</source>
            <translation>Form beim Einatmen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="285" />
            <source>Inspect trade-in</source>
            <translation>Inzahlungnahme prüfen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="286" />
            <source>Inspection</source>
            <translation>Prüfung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="287" />
            <source>Internal</source>
            <translation>Intern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="288" />
            <source>Interval</source>
            <translation>Intervall</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="289" />
            <source>Into</source>
            <translation>In</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="290" />
            <source>Inventory</source>
            <translation>Lager</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="291" />
            <source>Ip</source>
            <translation>IP-Adresse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="292" />
            <source>Is phone</source>
            <translation>Ist Telefon</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="293" />
            <source>Item</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="294" />
            <source>Items</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="295" />
            <source>Job</source>
            <translation>Auftrag</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="296" />
            <source>Jobs</source>
            <translation>Aufträge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="297" />
            <source>Kind</source>
            <translation>Art</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="298" />
            <source>Kit barcode</source>
            <translation>Set-Barcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="299" />
            <source>Label</source>
            <translation>Etikett</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="300" />
            <source>Language</source>
            <translation>Sprache</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="301" />
            <source>Languages</source>
            <translation>Sprachen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="302" />
            <source>Last checked at</source>
            <translation>Zuletzt geprüft am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="303" />
            <source>Last error</source>
            <translation>Letzter Fehler</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="304" />
            <source>Last sent at</source>
            <translation>Zuletzt gesendet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="305" />
            <source>Last status code</source>
            <translation>Letzter Statuscode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="306" />
            <source>Last used at</source>
            <translation>Zuletzt verwendet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="307" />
            <source>Last value</source>
            <translation>Letzter Wert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="308" />
            <source>Lastseenat</source>
            <translation>Zuletzt gesehen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="309" />
            <source>Lastseq</source>
            <translation>Letzte Folgenummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="310" />
            <source>Ledger</source>
            <translation>Punktekonto</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="311" />
            <source>Liability</source>
            <translation>Steuerschuld</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="312" />
            <source>Limit</source>
            <translation>Limit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="313" />
            <source>Line</source>
            <translation>Position</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="314" />
            <source>Line count</source>
            <translation>Anzahl Positionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="315" />
            <source>Lines</source>
            <translation>Positionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="316" />
            <source>List</source>
            <translation>Liste</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="317" />
            <source>Lists</source>
            <translation>Listen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="318" />
            <source>Live liability</source>
            <translation>Aktuelle Steuerschuld</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="319" />
            <source>Location</source>
            <translation>Lagerplatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="320" />
            <source>Location code</source>
            <translation>Lagerplatzcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="321" />
            <source>Locations</source>
            <translation>Lagerplätze</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="322" />
            <source>Locked</source>
            <translation>Gesperrt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="323" />
            <source>Logo file</source>
            <translation>Logodatei</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="324" />
            <source>M acute</source>
            <translation>M-Faktor akut</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="325" />
            <source>M chronic</source>
            <translation>M-Faktor chronisch</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="326" />
            <source>Machine</source>
            <translation>Maschine</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="327" />
            <source>Machine events</source>
            <translation>Maschinenereignisse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="328" />
            <source>Machines</source>
            <translation>Maschinen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="329" />
            <source>Mail</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="330" />
            <source>Make certificate</source>
            <translation>Zertifikat erstellen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="331" />
            <source>Make safety data sheet</source>
            <translation>Sicherheitsdatenblatt erstellen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="332" />
            <source>Max attempts</source>
            <translation>Höchstzahl Versuche</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="333" />
            <source>Max scans</source>
            <translation>Höchstzahl Scans</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="334" />
            <source>Media</source>
            <translation>Medien</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="335" />
            <source>Merge ticket</source>
            <translation>Ticket zusammenführen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="336" />
            <source>Merged into</source>
            <translation>Zusammengeführt in</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="337" />
            <source>Mes</source>
            <translation>MES</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="338" />
            <source>Message</source>
            <translation>Nachricht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="339" />
            <source>Method</source>
            <translation>Methode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="340" />
            <source>Metric</source>
            <translation>Kennzahl</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="341" />
            <source>Metrics</source>
            <translation>Kennzahlen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="342" />
            <source>Minutes</source>
            <translation>Minuten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="343" />
            <source>Minutes per unit</source>
            <translation>Minuten pro Stück</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="344" />
            <source>Modules</source>
            <translation>Module</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="345" />
            <source>Molecular formula</source>
            <translation>Summenformel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="346" />
            <source>Move serial</source>
            <translation>Seriennummer umlagern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="347" />
            <source>Movement</source>
            <translation>Bewegung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="348" />
            <source>Movements</source>
            <translation>Bewegungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="349" />
            <source>Multiplier</source>
            <translation>Multiplikator</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="350" />
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="351" />
            <source>Next attempt at</source>
            <translation>Nächster Versuch am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="352" />
            <source>Next run at</source>
            <translation>Nächster Lauf am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="353" />
            <source>Note</source>
            <translation>Notiz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="354" />
            <source>Notes</source>
            <translation>Notizen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="355" />
            <source>Number</source>
            <translation>Nummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="356" />
            <source>Oee</source>
            <translation>OEE</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="357" />
            <source>Offer expires at</source>
            <translation>Angebot gültig bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="358" />
            <source>Offers</source>
            <translation>Angebote</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="359" />
            <source>Offline seconds</source>
            <translation>Offline (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="360" />
            <source>Offset</source>
            <translation>Versatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="361" />
            <source>One kept message</source>
            <translation>Eine gespeicherte Nachricht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="362" />
            <source>Opened</source>
            <translation>Geöffnet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="363" />
            <source>Operation</source>
            <translation>Arbeitsgang</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="364" />
            <source>Operator</source>
            <translation>Bediener</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="365" />
            <source>Operator name</source>
            <translation>Name des Bedieners</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="366" />
            <source>Operator time</source>
            <translation>Bedienerzeit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="367" />
            <source>Operators</source>
            <translation>Bediener</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="368" />
            <source>Options</source>
            <translation>Optionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="369" />
            <source>Order</source>
            <translation>Bestellung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="370" />
            <source>Order external</source>
            <translation>Externe Bestellnummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="371" />
            <source>Order number</source>
            <translation>Bestellnummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="372" />
            <source>Orders</source>
            <translation>Bestellungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="373" />
            <source>Other requesters</source>
            <translation>Weitere Anfragende</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="374" />
            <source>Outcome</source>
            <translation>Ergebnis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="375" />
            <source>Owed</source>
            <translation>Geschuldet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="376" />
            <source>Owing</source>
            <translation>Offen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="377" />
            <source>Pack order</source>
            <translation>Bestellung packen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="378" />
            <source>Packed at</source>
            <translation>Gepackt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="379" />
            <source>Page</source>
            <translation>Seite</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="380" />
            <source>Pages</source>
            <translation>Seiten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="381" />
            <source>Parent</source>
            <translation>Übergeordnet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="382" />
            <source>Parts</source>
            <translation>Teile</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="383" />
            <source>Password</source>
            <translation>Passwort</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="384" />
            <source>Path</source>
            <translation>Pfad</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="385" />
            <source>Pay out</source>
            <translation>Auszahlen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="386" />
            <source>Payload format</source>
            <translation>Nutzdatenformat</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="387" />
            <source>Percent</source>
            <translation>Prozent</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="388" />
            <source>Performance</source>
            <translation>Leistung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="389" />
            <source>Period end</source>
            <translation>Zeitraum bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="390" />
            <source>Period start</source>
            <translation>Zeitraum von</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="391" />
            <source>Permanent</source>
            <translation>Dauerhaft</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="392" />
            <source>Phone</source>
            <translation>Telefon</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="393" />
            <source>Photos</source>
            <translation>Fotos</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="394" />
            <source>Physical state</source>
            <translation>Aggregatzustand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="395" />
            <source>Pick barcode</source>
            <translation>Kommissionier-Barcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="396" />
            <source>Pick order</source>
            <translation>Bestellung kommissionieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="397" />
            <source>Picked at</source>
            <translation>Kommissioniert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="398" />
            <source>Picked quantity</source>
            <translation>Kommissionierte Menge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="399" />
            <source>Place field</source>
            <translation>Feld platzieren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="400" />
            <source>Planned from</source>
            <translation>Geplant ab</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="401" />
            <source>Planned quantity</source>
            <translation>Geplante Menge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="402" />
            <source>Planned seconds</source>
            <translation>Geplante Zeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="403" />
            <source>Planned stop seconds</source>
            <translation>Geplanter Stillstand (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="404" />
            <source>Platform</source>
            <translation>Plattform</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="405" />
            <source>Points</source>
            <translation>Punkte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="406" />
            <source>Points per dollar</source>
            <translation>Punkte pro Dollar</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="407" />
            <source>Position</source>
            <translation>Position</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="408" />
            <source>Power on</source>
            <translation>Eingeschaltet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="409" />
            <source>Prefix</source>
            <translation>Präfix</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="410" />
            <source>Previous secret expires at</source>
            <translation>Bisheriges Geheimnis gültig bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="411" />
            <source>Price</source>
            <translation>Preis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="412" />
            <source>Priority</source>
            <translation>Priorität</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="413" />
            <source>Product</source>
            <translation>Produkt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="414" />
            <source>Product code</source>
            <translation>Produktcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="415" />
            <source>Product count</source>
            <translation>Anzahl Produkte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="416" />
            <source>Product name</source>
            <translation>Produktname</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="417" />
            <source>Product sku</source>
            <translation>Produkt-SKU</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="418" />
            <source>Product type</source>
            <translation>Produkttyp</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="419" />
            <source>Products</source>
            <translation>Produkte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="420" />
            <source>Progress</source>
            <translation>Fortschritt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="421" />
            <source>Proof file</source>
            <translation>Nachweisdatei</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="422" />
            <source>Properties</source>
            <translation>Eigenschaften</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="423" />
            <source>Province</source>
            <translation>Bundesland</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="424" />
            <source>Provisional</source>
            <translation>Vorläufig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="425" />
            <source>Pubchem cid</source>
            <translation>PubChem-CID</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="426" />
            <source>Public</source>
            <translation>Öffentlich</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="427" />
            <source>Published at</source>
            <translation>Veröffentlicht am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="428" />
            <source>Purchase date</source>
            <translation>Kaufdatum</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="429" />
            <source>Qr</source>
            <translation>QR-Codes</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="430" />
            <source>Quality</source>
            <translation>Qualität</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="431" />
            <source>Quantity</source>
            <translation>Menge</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="432" />
            <source>Questions</source>
            <translation>Fragen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="433" />
            <source>Queue</source>
            <translation>Warteschlange</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="434" />
            <source>Raised at</source>
            <translation>Ausgelöst am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="435" />
            <source>Range days</source>
            <translation>Zeitraum (Tage)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="436" />
            <source>Rate</source>
            <translation>Satz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="437" />
            <source>Rate table</source>
            <translation>Steuersatztabelle</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="438" />
            <source>Rate tables</source>
            <translation>Steuersatztabellen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="439" />
            <source>Rated at</source>
            <translation>Bewertet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="440" />
            <source>Reason</source>
            <translation>Grund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="441" />
            <source>Receipt</source>
            <translation>Beleg</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="442" />
            <source>Receipts</source>
            <translation>Belege</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="443" />
            <source>Receive trade-in</source>
            <translation>Inzahlungnahme empfangen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="444" />
            <source>Receive transfer</source>
            <translation>Umlagerung empfangen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="445" />
            <source>Received at</source>
            <translation>Empfangen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="446" />
            <source>Recipient</source>
            <translation>Empfänger</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="447" />
            <source>Recipients</source>
            <translation>Empfänger</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="448" />
            <source>Record</source>
            <translation>Datensatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="449" />
            <source>Reference</source>
            <translation>Referenz</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="450" />
            <source>Reformulate formula</source>
            <translation>Rezeptur überarbeiten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="451" />
            <source>Refund</source>
            <translation>Erstattung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="452" />
            <source>Register request</source>
            <translation>Registrierungsanfrage</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="453" />
            <source>Register requests</source>
            <translation>Registrierungsanfragen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="454" />
            <source>Reinstate dealer</source>
            <translation>Händler wieder zulassen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="455" />
            <source>Reject W-9</source>
            <translation>W-9 ablehnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="456" />
            <source>Reject filing</source>
            <translation>Meldung ablehnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="457" />
            <source>Reject reason</source>
            <translation>Ablehnungsgrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="458" />
            <source>Reject trade-in</source>
            <translation>Inzahlungnahme ablehnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="459" />
            <source>Release formula</source>
            <translation>Rezeptur freigeben</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="460" />
            <source>Remove attribute family</source>
            <translation>Attributfamilie entfernen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="461" />
            <source>Remove channel</source>
            <translation>Kanal entfernen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="462" />
            <source>Remove product</source>
            <translation>Produkt entfernen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="463" />
            <source>Replay</source>
            <translation>Erneut ausführen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="464" />
            <source>Replay an event</source>
            <translation>Ereignis erneut zustellen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="465" />
            <source>Reply on ticket</source>
            <translation>Auf Ticket antworten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="466" />
            <source>Report</source>
            <translation>Bericht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="467" />
            <source>Reports</source>
            <translation>Berichte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="468" />
            <source>Requested</source>
            <translation>Angefordert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="469" />
            <source>Requester</source>
            <translation>Anfragender</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="470" />
            <source>Requester email</source>
            <translation>E-Mail des Anfragenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="471" />
            <source>Requester name</source>
            <translation>Name des Anfragenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="472" />
            <source>Required</source>
            <translation>Pflichtfeld</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="473" />
            <source>Required in</source>
            <translation>Erforderlich in</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="474" />
            <source>Reservation</source>
            <translation>Reservierung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="475" />
            <source>Reservations</source>
            <translation>Reservierungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="476" />
            <source>Reserved</source>
            <translation>Reserviert</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="477" />
            <source>Resolution</source>
            <translation>Lösung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="478" />
            <source>Resolution due</source>
            <translation>Lösung fällig</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="479" />
            <source>Resolved at</source>
            <translation>Gelöst am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="480" />
            <source>Responses</source>
            <translation>Antworten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="481" />
            <source>Restore document</source>
            <translation>Dokument wiederherstellen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="482" />
            <source>Restored from</source>
            <translation>Wiederhergestellt aus</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="483" />
            <source>Result</source>
            <translation>Ergebnis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="484" />
            <source>Retailer</source>
            <translation>Händler</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="485" />
            <source>Reverse reason</source>
            <translation>Stornogrund</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="486" />
            <source>Reviewed at</source>
            <translation>Geprüft am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="487" />
            <source>Revision</source>
            <translation>Revision</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="488" />
            <source>Revisions</source>
            <translation>Revisionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="489" />
            <source>Revoke API key</source>
            <translation>API-Schlüssel widerrufen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="490" />
            <source>Revoke a station</source>
            <translation>Station sperren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="491" />
            <source>Revoke exemption certificate</source>
            <translation>Befreiungsbescheinigung widerrufen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="492" />
            <source>Revoked at</source>
            <translation>Widerrufen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="493" />
            <source>Revokedat</source>
            <translation>Widerrufen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="494" />
            <source>Rewards</source>
            <translation>Prämien</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="495" />
            <source>Rework formula</source>
            <translation>Rezeptur nacharbeiten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="496" />
            <source>Role</source>
            <translation>Rolle</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="497" />
            <source>Root</source>
            <translation>Stammordner</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="498" />
            <source>Rotate a subscription's secret</source>
            <translation>Geheimnis des Abonnements erneuern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="499" />
            <source>Routing</source>
            <translation>Arbeitsplan</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="500" />
            <source>Routings</source>
            <translation>Arbeitspläne</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="501" />
            <source>Rows</source>
            <translation>Zeilen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="502" />
            <source>Rules</source>
            <translation>Regeln</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="503" />
            <source>Run</source>
            <translation>Lauf</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="504" />
            <source>Run seconds</source>
            <translation>Laufzeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="505" />
            <source>Runs</source>
            <translation>Läufe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="506" />
            <source>Safety data sheet PDF</source>
            <translation>Sicherheitsdatenblatt (PDF)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="507" />
            <source>Satisfaction comment</source>
            <translation>Kommentar zur Zufriedenheit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="508" />
            <source>Satisfaction rating</source>
            <translation>Zufriedenheitsbewertung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="509" />
            <source>Scan alert threshold</source>
            <translation>Warnschwelle für Scans</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="510" />
            <source>Scans</source>
            <translation>Scans</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="511" />
            <source>Scheduled report</source>
            <translation>Geplanter Bericht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="512" />
            <source>Scheduled reports</source>
            <translation>Geplante Berichte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="513" />
            <source>Scrap</source>
            <translation>Ausschuss</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="514" />
            <source>Scrap count</source>
            <translation>Ausschussteile</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="515" />
            <source>Screen</source>
            <translation>Bildschirm</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="516" />
            <source>Sds</source>
            <translation>Sicherheitsdatenblätter</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="517" />
            <source>Search</source>
            <translation>Suchen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="518" />
            <source>Secret</source>
            <translation>Geheimnis</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="519" />
            <source>Segment</source>
            <translation>Segment</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="520" />
            <source>Segments</source>
            <translation>Segmente</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="521" />
            <source>Send a test event</source>
            <translation>Testereignis senden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="522" />
            <source>Send at</source>
            <translation>Senden am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="523" />
            <source>Send campaign</source>
            <translation>Kampagne senden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="524" />
            <source>Send for signature</source>
            <translation>Zur Unterschrift senden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="525" />
            <source>Sender</source>
            <translation>Absender</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="526" />
            <source>Sends</source>
            <translation>Sendungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="527" />
            <source>Sent</source>
            <translation>Gesendet</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="528" />
            <source>Sent at</source>
            <translation>Gesendet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="529" />
            <source>Sequence</source>
            <translation>Folgenummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="530" />
            <source>Serial</source>
            <translation>Seriennummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="531" />
            <source>Serial number</source>
            <translation>Seriennummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="532" />
            <source>Serials</source>
            <translation>Seriennummern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="533" />
            <source>Set</source>
            <translation>Gesetzt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="534" />
            <source>Set once</source>
            <translation>Einmal gesetzt</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="535" />
            <source>Set product image</source>
            <translation>Produktbild festlegen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="536" />
            <source>Set product translation</source>
            <translation>Produktübersetzung festlegen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="537" />
            <source>Settle dispute</source>
            <translation>Einspruch entscheiden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="538" />
            <source>Setup minutes</source>
            <translation>Rüstzeit (Minuten)</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="539" />
            <source>Severity</source>
            <translation>Schweregrad</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="540" />
            <source>Sha256</source>
            <translation>SHA-256</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="541" />
            <source>Share</source>
            <translation>Anteil</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="542" />
            <source>Shift</source>
            <translation>Schicht</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="543" />
            <source>Shifts</source>
            <translation>Schichten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="544" />
            <source>Ship order</source>
            <translation>Bestellung versenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="545" />
            <source>Ship serial</source>
            <translation>Seriennummer versenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="546" />
            <source>Ship trade-in</source>
            <translation>Inzahlungnahme versenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="547" />
            <source>Ship transfer</source>
            <translation>Umlagerung versenden</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="548" />
            <source>Shipments</source>
            <translation>Sendungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="549" />
            <source>Shipped at</source>
            <translation>Versendet am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="550" />
            <source>Shipping</source>
            <translation>Versand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="551" />
            <source>Shipping address</source>
            <translation>Lieferadresse</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="552" />
            <source>Short code</source>
            <translation>Kurzcode</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="553" />
            <source>Sign</source>
            <translation>Unterschreiben</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="554" />
            <source>Sign in person</source>
            <translation>Persönlich unterschreiben</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="555" />
            <source>Signature</source>
            <translation>Unterschrift</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="556" />
            <source>Signature type</source>
            <translation>Art der Unterschrift</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="557" />
            <source>Signed date</source>
            <translation>Unterschrieben am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="558" />
            <source>Signed sha256</source>
            <translation>SHA-256 des unterschriebenen Dokuments</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="559" />
            <source>Signer</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="560" />
            <source>Signers</source>
            <translation>Unterzeichner</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="561" />
            <source>Signing</source>
            <translation>Unterschriften</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="562" />
            <source>Signing order</source>
            <translation>Reihenfolge der Unterschriften</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="563" />
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="564" />
            <source>Sku</source>
            <translation>SKU</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="565" />
            <source>Sla breached</source>
            <translation>SLA überschritten</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="566" />
            <source>Slot</source>
            <translation>Fach</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="567" />
            <source>Sm</source>
            <translation>Sm</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="568" />
            <source>Sms</source>
            <translation>SMS</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="569" />
            <source>Sort</source>
            <translation>Sortierung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="570" />
            <source>Source</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="571" />
            <source>Specific limits</source>
            <translation>Spezifische Grenzwerte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="572" />
            <source>Split order</source>
            <translation>Bestellung aufteilen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="573" />
            <source>Start</source>
            <translation>Start</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="574" />
            <source>Start claim</source>
            <translation>Reklamation beginnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="575" />
            <source>Start formula</source>
            <translation>Rezeptur beginnen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="576" />
            <source>Started at</source>
            <translation>Begonnen am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="577" />
            <source>Starts on</source>
            <translation>Beginnt am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="578" />
            <source>State</source>
            <translation>Bundesstaat</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="579" />
            <source>Station</source>
            <translation>Station</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="580" />
            <source>Stationid</source>
            <translation>Station</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="581" />
            <source>Stations</source>
            <translation>Stationen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="582" />
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="583" />
            <source>Status since</source>
            <translation>Status seit</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="584" />
            <source>Steps</source>
            <translation>Schritte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="585" />
            <source>Stock</source>
            <translation>Bestand</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="586" />
            <source>Stop sending</source>
            <translation>Versand stoppen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="587" />
            <source>Style</source>
            <translation>Stil</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="588" />
            <source>Subject</source>
            <translation>Betreff</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="589" />
            <source>Subjects</source>
            <translation>Betreffzeilen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="590" />
            <source>Submission</source>
            <translation>Einreichung</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="591" />
            <source>Submissions</source>
            <translation>Einreichungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="592" />
            <source>Submitted at</source>
            <translation>Eingereicht am</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="593" />
            <source>Subscription</source>
            <translation>Abonnement</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="594" />
            <source>Subscriptions</source>
            <translation>Abonnements</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="595" />
            <source>Suggested points</source>
            <translation>Vorgeschlagene Punkte</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="596" />
            <source>Support</source>
            <translation>Support</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="597" />
            <source>Survey</source>
            <translation>Umfrage</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="598" />
            <source>Surveys</source>
            <translation>Umfragen</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="599" />
            <source>Suspend dealer</source>
            <translation>Händler sperren</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="600" />
            <source>Tag</source>
            <translation>Schlagwort</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="601" />
            <source>Tags</source>
            <translation>Schlagwörter</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="602" />
            <source>Target</source>
            <translation>Ziel</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="603" />
            <source>Target module</source>
            <translation>Zielmodul</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="604" />
            <source>Tax</source>
            <translation>Steuern</translation>
        </message>
        <message>
            <location filename="../../records/strings_1.py" line="605" />
            <source>Tax classification</source>
            <translation>Steuerliche Einstufung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="6" />
            <source>Tax collected</source>
            <translation>Vereinnahmte Steuer</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="7" />
            <source>Template</source>
            <translation>Vorlage</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="8" />
            <source>Templates</source>
            <translation>Vorlagen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="9" />
            <source>Tenant</source>
            <translation>Mandant</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="10" />
            <source>Text</source>
            <translation>Text</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="11" />
            <source>The PDF</source>
            <translation>Das PDF</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="12" />
            <source>The data erasure certificate of an inspected trade-in</source>
            <translation>Datenlöschzertifikat einer geprüften Inzahlungnahme</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="13" />
            <source>The document as Markdown</source>
            <translation>Das Dokument als Markdown</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="14" />
            <source>The product's image</source>
            <translation>Das Produktbild</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="15" />
            <source>The report's file</source>
            <translation>Die Berichtsdatei</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="16" />
            <source>Threshold</source>
            <translation>Schwellenwert</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="17" />
            <source>Ticket</source>
            <translation>Ticket</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="18" />
            <source>Tickets</source>
            <translation>Tickets</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="19" />
            <source>Tin masked</source>
            <translation>Steuernummer (maskiert)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="20" />
            <source>Tin type</source>
            <translation>Art der Steuernummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="21" />
            <source>Title</source>
            <translation>Titel</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="22" />
            <source>To</source>
            <translation>Bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="23" />
            <source>To location</source>
            <translation>Nach Lagerplatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="24" />
            <source>Tool</source>
            <translation>Werkzeug</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="25" />
            <source>Total</source>
            <translation>Summe</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="26" />
            <source>Total count</source>
            <translation>Gesamtzahl</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="27" />
            <source>Total points</source>
            <translation>Punkte gesamt</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="28" />
            <source>Total quantity</source>
            <translation>Gesamtmenge</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="29" />
            <source>Tracking number</source>
            <translation>Sendungsnummer</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="30" />
            <source>Transaction</source>
            <translation>Buchung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="31" />
            <source>Transactions</source>
            <translation>Buchungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="32" />
            <source>Transfer</source>
            <translation>Umlagerung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="33" />
            <source>Transfer warranty</source>
            <translation>Garantie übertragen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="34" />
            <source>Transfers</source>
            <translation>Umlagerungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="35" />
            <source>Transit location</source>
            <translation>Transitlagerplatz</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="36" />
            <source>Translations</source>
            <translation>Übersetzungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="37" />
            <source>Trashed</source>
            <translation>Im Papierkorb</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="38" />
            <source>Trigger</source>
            <translation>Auslöser</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="39" />
            <source>Type</source>
            <translation>Typ</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="40" />
            <source>Unit</source>
            <translation>Einheit</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="41" />
            <source>Unknown acute</source>
            <translation>Unbekannte akute Toxizität</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="42" />
            <source>Unpick order</source>
            <translation>Kommissionierung zurücknehmen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="43" />
            <source>Unplanned stop seconds</source>
            <translation>Ungeplanter Stillstand (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="44" />
            <source>Unrecorded seconds</source>
            <translation>Nicht erfasste Zeit (Sekunden)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="45" />
            <source>Unsubscribed</source>
            <translation>Abgemeldet</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="46" />
            <source>Updated at</source>
            <translation>Geändert am</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="47" />
            <source>Upgrade</source>
            <translation>Upgrade</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="48" />
            <source>Url</source>
            <translation>URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="49" />
            <source>User</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="50" />
            <source>Usermodules</source>
            <translation>Module des Benutzers</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="51" />
            <source>Users</source>
            <translation>Benutzer</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="52" />
            <source>Valid since</source>
            <translation>Gültig seit</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="53" />
            <source>Valid until</source>
            <translation>Gültig bis</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="54" />
            <source>Valuation</source>
            <translation>Bewertung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="55" />
            <source>Valuations</source>
            <translation>Bewertungen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="56" />
            <source>Value</source>
            <translation>Wert</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="57" />
            <source>Values</source>
            <translation>Werte</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="58" />
            <source>Variants</source>
            <translation>Varianten</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="59" />
            <source>Verified</source>
            <translation>Geprüft</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="60" />
            <source>Verify W-9</source>
            <translation>W-9 prüfen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="61" />
            <source>Versions</source>
            <translation>Versionen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="62" />
            <source>Void reason</source>
            <translation>Grund der Ungültigmachung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="63" />
            <source>Void warranty</source>
            <translation>Garantie für ungültig erklären</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="64" />
            <source>W9</source>
            <translation>W-9</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="65" />
            <source>Wait</source>
            <translation>Warten</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="66" />
            <source>Warranties</source>
            <translation>Garantien</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="67" />
            <source>Warranty</source>
            <translation>Garantie</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="68" />
            <source>Warranty months</source>
            <translation>Garantie (Monate)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="69" />
            <source>Webhook url</source>
            <translation>Webhook-URL</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="70" />
            <source>Weight grams</source>
            <translation>Gewicht (Gramm)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="71" />
            <source>Widgets</source>
            <translation>Kacheln</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="72" />
            <source>Width</source>
            <translation>Breite</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="73" />
            <source>Window days</source>
            <translation>Zeitfenster (Tage)</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="74" />
            <source>Withdraw reward</source>
            <translation>Prämie zurückziehen</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="75" />
            <source>Write off reason</source>
            <translation>Grund der Abschreibung</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="76" />
            <source>X</source>
            <translation>X</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="77" />
            <source>Y</source>
            <translation>Y</translation>
        </message>
        <message>
            <location filename="../../records/strings_2.py" line="78" />
            <source>Zip</source>
            <translation>PLZ</translation>
        </message>
    </context>
</TS>
