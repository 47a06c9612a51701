<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>FieldErrors</name>
        <message>
            <source>Required.</source>
            <translation>Pflichtfeld.</translation>
        </message>
        <message>
            <source>Choose at least one.</source>
            <translation>Wählen Sie mindestens einen Eintrag.</translation>
        </message>
        <message>
            <source>not a valid e-mail address</source>
            <translation>keine gültige E-Mail-Adresse</translation>
        </message>
        <message>
            <source>must not be blank</source>
            <translation>darf nicht leer sein</translation>
        </message>
    </context>
    <context>
        <name>IssueCard</name>
        <message>
            <source>{kind} · made {value} · change #{issue.seq}</source>
            <translation>{kind} · erstellt {value} · Änderung #{issue.seq}</translation>
        </message>
    </context>
    <context>
        <name>KioskExits</name>
        <message>
            <source>Enter the admin PIN to leave kiosk mode.</source>
            <translation>Geben Sie die Admin-PIN ein, um den Kioskmodus zu verlassen.</translation>
        </message>
        <message>
            <source>Enter the admin PIN to quit the station.</source>
            <translation>Geben Sie die Admin-PIN ein, um die Station zu beenden.</translation>
        </message>
    </context>
    <context>
        <name>LockPage</name>
        <message>
            <source>Locked</source>
            <translation>Gesperrt</translation>
        </message>
        <message>
            <source>Password or badge</source>
            <translation>Passwort oder Ausweis</translation>
        </message>
        <message>
            <source>Sign &amp;out</source>
            <translation>&amp;Abmelden</translation>
        </message>
        <message>
            <source>&amp;Unlock</source>
            <translation>&amp;Entsperren</translation>
        </message>
        <message>
            <source>Scan the badge or enter the password</source>
            <translation>Scannen Sie den Ausweis oder geben Sie das Passwort ein</translation>
        </message>
        <message>
            <source>Enter the password</source>
            <translation>Geben Sie das Passwort ein</translation>
        </message>
        <message>
            <source>{who} was signed in. {how} to go on, or sign out.</source>
            <translation>{who} war angemeldet. {how}, um weiterzuarbeiten, oder melden Sie sich ab.</translation>
        </message>
    </context>
    <context>
        <name>PinDialog</name>
        <message>
            <source>Admin PIN</source>
            <translation>Admin-PIN</translation>
        </message>
        <message>
            <source>Scan ignored: type the admin PIN.</source>
            <translation>Scan ignoriert: Geben Sie die Admin-PIN ein.</translation>
        </message>
        <message>
            <source>Wrong PIN. Ask an administrator.</source>
            <translation>Falsche PIN. Fragen Sie einen Administrator.</translation>
        </message>
    </context>
    <context>
        <name>PlaceholderWorkspace</name>
        <message>
            <source>{title} workspace</source>
            <translation>Arbeitsbereich {title}</translation>
        </message>
        <message>
            <source>The {value} workspace could not be opened on this station.
The problem was logged; the other workspaces work as usual.</source>
            <translation>Der Arbeitsbereich {value} konnte auf dieser Station nicht geöffnet werden.
Der Fehler wurde protokolliert; die anderen Arbeitsbereiche funktionieren wie gewohnt.</translation>
        </message>
    </context>
    <context>
        <name>Printing</name>
        <message>
            <source>4 × 6 in (shipping label)</source>
            <translation>4 × 6 Zoll (Versandetikett)</translation>
        </message>
        <message>
            <source>100 × 150 mm</source>
            <translation>100 × 150 mm</translation>
        </message>
        <message>
            <source>62 mm roll</source>
            <translation>62-mm-Rolle</translation>
        </message>
        <message>
            <source>A4 sheet</source>
            <translation>A4-Blatt</translation>
        </message>
    </context>
    <context>
        <name>Roles</name>
        <message>
            <source>Owner</source>
            <translation>Inhaber</translation>
        </message>
        <message>
            <source>Admin</source>
            <translation>Administrator</translation>
        </message>
        <message>
            <source>Operator</source>
            <translation>Sachbearbeiter</translation>
        </message>
        <message>
            <source>Warehouse device</source>
            <translation>Lagergerät</translation>
        </message>
    </context>
    <context>
        <name>ScanInput</name>
        <message>
            <source>Scan here</source>
            <translation>Hier scannen</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Station settings</source>
            <translation>Stationseinstellungen</translation>
        </message>
        <message>
            <source>Station</source>
            <translation>Station</translation>
        </message>
        <message>
            <source>Light</source>
            <translation>Hell</translation>
        </message>
        <message>
            <source>Dark</source>
            <translation>Dunkel</translation>
        </message>
        <message>
            <source>Kiosk (large, touch)</source>
            <translation>Kiosk (groß, Touch)</translation>
        </message>
        <message>
            <source>Enter</source>
            <translation>Enter</translation>
        </message>
        <message>
            <source>Tab</source>
            <translation>Tab</translation>
        </message>
        <message>
            <source>Play a sound on success and failure</source>
            <translation>Ton bei Erfolg und Fehler abspielen</translation>
        </message>
        <message>
            <source>&amp;Platform URL</source>
            <translation>Plattform-&amp;URL</translation>
        </message>
        <message>
            <source>Station &amp;name</source>
            <translation>Stations&amp;name</translation>
        </message>
        <message>
            <source>&amp;Theme</source>
            <translation>&amp;Farbschema</translation>
        </message>
        <message>
            <source>Scanner suffi&amp;x</source>
            <translation>Scanner-Suffi&amp;x</translation>
        </message>
        <message>
            <source>S&amp;ound</source>
            <translation>T&amp;on</translation>
        </message>
        <message>
            <source>System</source>
            <translation>System</translation>
        </message>
        <message>
            <source>Shown from the next start of the app.</source>
            <translation>Gilt ab dem nächsten Start der App.</translation>
        </message>
        <message>
            <source>Lan&amp;guage</source>
            <translation>Sp&amp;rache</translation>
        </message>
        <message>
            <source>Kiosk</source>
            <translation>Kiosk</translation>
        </message>
        <message>
            <source> min</source>
            <translation> Min.</translation>
        </message>
        <message>
            <source>Use the kiosk theme in kiosk mode</source>
            <translation>Im Kioskmodus das Kiosk-Farbschema verwenden</translation>
        </message>
        <message>
            <source>leave empty to keep the PIN</source>
            <translation>leer lassen: PIN bleibt</translation>
        </message>
        <message>
            <source>leave empty to keep the current PIN</source>
            <translation>leer lassen, um die aktuelle PIN zu behalten</translation>
        </message>
        <message>
            <source>&amp;Lock after</source>
            <translation>Sperren n&amp;ach</translation>
        </message>
        <message>
            <source>Kiosk t&amp;heme</source>
            <translation>Kiosk-Farbsc&amp;hema</translation>
        </message>
        <message>
            <source>New admin P&amp;IN</source>
            <translation>Neue Admin-P&amp;IN</translation>
        </message>
        <message>
            <source>&amp;Confirm PIN</source>
            <translation>PIN &amp;bestätigen</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Speichern</translation>
        </message>
        <message>
            <source>Printing</source>
            <translation>Drucken</translation>
        </message>
        <message>
            <source>La&amp;bel printer</source>
            <translation>Eti&amp;kettendrucker</translation>
        </message>
        <message>
            <source>Label &amp;format</source>
            <translation>Etikettfor&amp;mat</translation>
        </message>
        <message>
            <source>&amp;Document printer</source>
            <translation>&amp;Dokumentdrucker</translation>
        </message>
        <message>
            <source>System default printer</source>
            <translation>Standarddrucker des Systems</translation>
        </message>
        <message>
            <source>Save as PDF file</source>
            <translation>Als PDF-Datei speichern</translation>
        </message>
        <message>
            <source>{value} (not found)</source>
            <translation>{value} (nicht gefunden)</translation>
        </message>
        <message>
            <source>The two PINs differ.</source>
            <translation>Die beiden PINs stimmen nicht überein.</translation>
        </message>
    </context>
    <context>
        <name>ShellWindow</name>
        <message>
            <source>&amp;Settings</source>
            <translation>&amp;Einstellungen</translation>
        </message>
        <message>
            <source>&amp;Lock</source>
            <translation>&amp;Sperren</translation>
        </message>
        <message>
            <source>Sign &amp;out</source>
            <translation>&amp;Abmelden</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Beenden</translation>
        </message>
        <message>
            <source>E&amp;xit kiosk</source>
            <translation>Kiosk &amp;verlassen</translation>
        </message>
        <message>
            <source>&amp;Refresh status</source>
            <translation>Status a&amp;ktualisieren</translation>
        </message>
        <message>
            <source>S&amp;ync…</source>
            <translation>S&amp;ynchronisierung…</translation>
        </message>
        <message>
            <source>Sync state and sync issues (Ctrl+Shift+S)</source>
            <translation>Synchronisierungsstatus und -probleme (Strg+Umschalt+S)</translation>
        </message>
        <message>
            <source>More workspaces</source>
            <translation>Weitere Arbeitsbereiche</translation>
        </message>
        <message>
            <source>More</source>
            <translation>Mehr</translation>
        </message>
        <message>
            <source>The station's data could not be opened: {exc}</source>
            <translation>Die Daten der Station konnten nicht geöffnet werden: {exc}</translation>
        </message>
        <message>
            <source>Opening this station's data: the first start takes longer…</source>
            <translation>Die Daten dieser Station werden geöffnet: der erste Start dauert länger…</translation>
        </message>
        <message>
            <source>Signing in failed; the problem was logged.</source>
            <translation>Die Anmeldung ist fehlgeschlagen; der Fehler wurde protokolliert.</translation>
        </message>
        <message>
            <source>E-mail or password is not correct.</source>
            <translation>E-Mail oder Passwort ist nicht richtig.</translation>
        </message>
        <message>
            <source>Badge not accepted.</source>
            <translation>Ausweis nicht akzeptiert.</translation>
        </message>
        <message>
            <source>Opening the tenant failed; the problem was logged.</source>
            <translation>Der Mandant konnte nicht geöffnet werden; der Fehler wurde protokolliert.</translation>
        </message>
        <message>
            <source>No workspace on this station fits your access in {tenant.name} (modules: {value}). Ask an administrator.</source>
            <translation>Kein Arbeitsbereich dieser Station passt zu Ihren Rechten bei {tenant.name} (Module: {value}). Fragen Sie einen Administrator.</translation>
        </message>
        <message>
            <source>Signed in with this station's data: the platform at {platform_url} does not answer. Your changes are kept here and sent when it is back.</source>
            <translation>Mit den Daten dieser Station angemeldet: Die Plattform unter {platform_url} antwortet nicht. Ihre Änderungen werden hier gespeichert und gesendet, sobald sie wieder erreichbar ist.</translation>
        </message>
        <message>
            <source>{title} ({keys})</source>
            <translation>{title} ({keys})</translation>
        </message>
        <message>
            <source>The {name} workspace failed to open; the problem was logged.</source>
            <translation>Der Arbeitsbereich {name} ließ sich nicht öffnen; der Fehler wurde protokolliert.</translation>
        </message>
        <message>
            <source>Password not correct.</source>
            <translation>Das Passwort ist nicht richtig.</translation>
        </message>
        <message>
            <source>Enter the password.</source>
            <translation>Geben Sie das Passwort ein.</translation>
        </message>
        <message>
            <source>Kiosk mode left: this is a normal window now.</source>
            <translation>Kioskmodus verlassen: Dies ist jetzt ein normales Fenster.</translation>
        </message>
    </context>
    <context>
        <name>SignInPage</name>
        <message>
            <source>Sign in</source>
            <translation>Anmelden</translation>
        </message>
        <message>
            <source>Platform Station · {station_name}</source>
            <translation>Plattform-Station · {station_name}</translation>
        </message>
        <message>
            <source>&amp;Person</source>
            <translation>&amp;Person</translation>
        </message>
        <message>
            <source>&amp;Device</source>
            <translation>&amp;Gerät</translation>
        </message>
        <message>
            <source>Sign in with your e-mail and password (Alt+P)</source>
            <translation>Mit E-Mail und Passwort anmelden (Alt+P)</translation>
        </message>
        <message>
            <source>Scanning station: the device account and its badge (Alt+D)</source>
            <translation>Scanstation: das Gerätekonto und sein Ausweis (Alt+G)</translation>
        </message>
        <message>
            <source>name@company.com</source>
            <translation>name@firma.de</translation>
        </message>
        <message>
            <source>E-mail</source>
            <translation>E-Mail</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>Passwort</translation>
        </message>
        <message>
            <source>&amp;E-mail</source>
            <translation>&amp;E-Mail</translation>
        </message>
        <message>
            <source>Pass&amp;word</source>
            <translation>Pass&amp;wort</translation>
        </message>
        <message>
            <source>Settings…</source>
            <translation>Einstellungen…</translation>
        </message>
        <message>
            <source>Station settings (Ctrl+,)</source>
            <translation>Stationseinstellungen (Strg+,)</translation>
        </message>
        <message>
            <source>Scan ignored: type your password, or choose Device to sign in with a badge.</source>
            <translation>Scan ignoriert: Geben Sie Ihr Passwort ein, oder wählen Sie „Gerät“, um sich mit einem Ausweis anzumelden.</translation>
        </message>
        <message>
            <source>Device &amp;account</source>
            <translation>Geräte&amp;konto</translation>
        </message>
        <message>
            <source>&amp;Badge</source>
            <translation>&amp;Ausweis</translation>
        </message>
        <message>
            <source>Scan the station badge</source>
            <translation>Stationsausweis scannen</translation>
        </message>
        <message>
            <source>Signing in…</source>
            <translation>Anmeldung läuft…</translation>
        </message>
    </context>
    <context>
        <name>SyncController</name>
        <message>
            <source>This station was started offline: changes are kept here and sent when it runs online.</source>
            <translation>Diese Station wurde offline gestartet: Änderungen werden hier gespeichert und gesendet, sobald sie online läuft.</translation>
        </message>
        <message>
            <source>No platform URL is set (Settings): changes are kept on this station.</source>
            <translation>Keine Plattform-URL festgelegt (Einstellungen): Änderungen bleiben auf dieser Station.</translation>
        </message>
        <message>
            <source>Sync does not run in this window: changes are kept here and sent by the station app.</source>
            <translation>In diesem Fenster läuft keine Synchronisierung: Änderungen werden hier gespeichert und von der Stations-App gesendet.</translation>
        </message>
        <message>
            <source>The platform at {url} does not answer: changes are kept here and sent when it is back.</source>
            <translation>Die Plattform unter {url} antwortet nicht: Änderungen werden hier gespeichert und gesendet, sobald sie wieder erreichbar ist.</translation>
        </message>
    </context>
    <context>
        <name>SyncPanel</name>
        <message>
            <source>Sync</source>
            <translation>Synchronisierung</translation>
        </message>
        <message>
            <source>Last sync</source>
            <translation>Letzte Synchronisierung</translation>
        </message>
        <message>
            <source>Waiting to send</source>
            <translation>Warten auf Senden</translation>
        </message>
        <message>
            <source>Station id</source>
            <translation>Stations-ID</translation>
        </message>
        <message>
            <source>&amp;Sync now</source>
            <translation>&amp;Jetzt synchronisieren</translation>
        </message>
        <message>
            <source>&amp;Register this station</source>
            <translation>Diese Station &amp;registrieren</translation>
        </message>
        <message>
            <source>&amp;Download everything again</source>
            <translation>Alles neu &amp;herunterladen</translation>
        </message>
        <message>
            <source>Pull every record of this tenant from the platform again; the records stay usable meanwhile</source>
            <translation>Alle Datensätze dieses Mandanten erneut von der Plattform laden; die Datensätze bleiben währenddessen nutzbar</translation>
        </message>
        <message>
            <source>&amp;Close</source>
            <translation>S&amp;chließen</translation>
        </message>
        <message>
            <source>Sync issues</source>
            <translation>Synchronisierungsprobleme</translation>
        </message>
        <message>
            <source>Reading the sync state failed: {value}</source>
            <translation>Der Synchronisierungsstatus konnte nicht gelesen werden: {value}</translation>
        </message>
        <message>
            <source>not registered (platform URL in Settings: {value})</source>
            <translation>nicht registriert (Plattform-URL in den Einstellungen: {value})</translation>
        </message>
        <message>
            <source>Sync issues ({n})</source>
            <translation>Synchronisierungsprobleme ({n})</translation>
        </message>
        <message>
            <source>The platform refused these changes made on this station. Choose for each what happens.</source>
            <translation>Die Plattform hat diese auf der Station gemachten Änderungen abgelehnt. Wählen Sie für jede, was geschehen soll.</translation>
        </message>
        <message>
            <source>No sync issues: the platform accepted every change sent from this station.</source>
            <translation>Keine Synchronisierungsprobleme: Die Plattform hat jede Änderung dieser Station angenommen.</translation>
        </message>
        <message>
            <source>No sync issues. Nothing has reached the platform from this station yet.</source>
            <translation>Keine Synchronisierungsprobleme. Von dieser Station hat noch nichts die Plattform erreicht.</translation>
        </message>
        <message>
            <source>An owner or admin registers this station with the platform.</source>
            <translation>Ein Inhaber oder Administrator registriert diese Station bei der Plattform.</translation>
        </message>
        <message>
            <source>Registering signs this station up with {value} as {value2}; then it syncs on its own.</source>
            <translation>Die Registrierung meldet diese Station bei {value} als {value2} an; danach synchronisiert sie selbstständig.</translation>
        </message>
        <message>
            <source>Every record was downloaded from the platform again.</source>
            <translation>Alle Datensätze wurden erneut von der Plattform heruntergeladen.</translation>
        </message>
        <message>
            <source>Downloading everything again failed: {value}</source>
            <translation>Das erneute Herunterladen ist fehlgeschlagen: {value}</translation>
        </message>
        <message>
            <source>This station does not sync now (sign in, and register it with the platform).</source>
            <translation>Diese Station synchronisiert derzeit nicht (melden Sie sich an und registrieren Sie sie bei der Plattform).</translation>
        </message>
        <message>
            <source>Set the platform URL in Settings first.</source>
            <translation>Legen Sie zuerst die Plattform-URL in den Einstellungen fest.</translation>
        </message>
        <message>
            <source>There is no platform sign-in for you on this station: the platform did not answer when you signed in. Sign out, then sign in again while the platform answers.</source>
            <translation>Für Sie gibt es auf dieser Station keine Plattform-Anmeldung: Die Plattform hat bei Ihrer Anmeldung nicht geantwortet. Melden Sie sich ab und wieder an, während die Plattform erreichbar ist.</translation>
        </message>
        <message>
            <source>Registering with {url}…</source>
            <translation>Registrierung bei {url}…</translation>
        </message>
        <message>
            <source>Registered with {url}. This station syncs now.</source>
            <translation>Bei {url} registriert. Diese Station synchronisiert jetzt.</translation>
        </message>
        <message>
            <source>This station is registered with the platform.</source>
            <translation>Diese Station ist bei der Plattform registriert.</translation>
        </message>
        <message>
            <source> The platform's version is shown after the next sync.</source>
            <translation> Die Version der Plattform wird nach der nächsten Synchronisierung angezeigt.</translation>
        </message>
    </context>
    <context>
        <name>SyncWords</name>
        <message>
            <source>ddd d MMM HH:mm</source>
            <translation>ddd d. MMM HH:mm</translation>
        </message>
        <message numerus="yes">
            <source>%n change(s) waiting</source>
            <translation>
                <numerusform>%n Änderung wartet</numerusform>
                <numerusform>%n Änderungen warten</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n fetched</source>
            <translation>
                <numerusform>%n geholt</numerusform>
                <numerusform>%n geholt</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n removed</source>
            <translation>
                <numerusform>%n entfernt</numerusform>
                <numerusform>%n entfernt</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n sync issue(s)</source>
            <translation>
                <numerusform>%n Synchronisierungsproblem</numerusform>
                <numerusform>%n Synchronisierungsprobleme</numerusform>
            </translation>
        </message>
        <message>
            <source>Downloading everything again… {done} of {total}</source>
            <translation>Alles wird neu geladen… {done} von {total}</translation>
        </message>
        <message>
            <source>Not registered with the platform</source>
            <translation>Nicht bei der Plattform registriert</translation>
        </message>
        <message>
            <source>Note on ticket</source>
            <translation>Notiz zu Ticket</translation>
        </message>
        <message>
            <source>Offline · {waiting}</source>
            <translation>Offline · {waiting}</translation>
        </message>
        <message>
            <source>Online · {waiting}</source>
            <translation>Online · {waiting}</translation>
        </message>
        <message>
            <source>Records differed from the platform's and were repaired: {tables}</source>
            <translation>Datensätze wichen von denen der Plattform ab und wurden repariert: {tables}</translation>
        </message>
        <message>
            <source>Records differed from the platform's at {when} and were repaired: {tables}</source>
            <translation>Datensätze wichen um {when} von denen der Plattform ab und wurden repariert: {tables}</translation>
        </message>
        <message>
            <source>Sync error: {message}</source>
            <translation>Synchronisierungsfehler: {message}</translation>
        </message>
        <message>
            <source>Synced {when} · {waiting}</source>
            <translation>Synchronisiert {when} · {waiting}</translation>
        </message>
        <message numerus="yes">
            <source>Syncing… %n change(s) to send</source>
            <translation>
                <numerusform>Synchronisierung… %n Änderung zu senden</numerusform>
                <numerusform>Synchronisierung… %n Änderungen zu senden</numerusform>
            </translation>
        </message>
        <message>
            <source>Syncing… {done} of {total}</source>
            <translation>Synchronisierung… {done} von {total}</translation>
        </message>
        <message>
            <source>Syncing…</source>
            <translation>Synchronisierung…</translation>
        </message>
        <message>
            <source>The platform refused it: {reason}</source>
            <translation>Die Plattform hat es abgelehnt: {reason}</translation>
        </message>
        <message>
            <source>code {code}</source>
            <translation>Code {code}</translation>
        </message>
        <message>
            <source>never</source>
            <translation>nie</translation>
        </message>
        <message>
            <source>no reason given</source>
            <translation>kein Grund angegeben</translation>
        </message>
        <message>
            <source>nothing waiting</source>
            <translation>nichts ausstehend</translation>
        </message>
        <message>
            <source>on the platform it is now {state}</source>
            <translation>auf der Plattform ist es jetzt „{state}“</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>unbekannt</translation>
        </message>
        <message numerus="yes">
            <source>… and %n more change(s)</source>
            <translation>
                <numerusform>… und %n weitere Änderung</numerusform>
                <numerusform>… und %n weitere Änderungen</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>TenantPage</name>
        <message>
            <source>Choose a tenant</source>
            <translation>Mandant wählen</translation>
        </message>
        <message>
            <source>You belong to several; pick where to work now.</source>
            <translation>Sie gehören zu mehreren Mandanten; wählen Sie, wo Sie jetzt arbeiten.</translation>
        </message>
        <message>
            <source>&amp;Back</source>
            <translation>&amp;Zurück</translation>
        </message>
        <message>
            <source>&amp;Continue</source>
            <translation>&amp;Weiter</translation>
        </message>
        <message>
            <source>Choose an active tenant.</source>
            <translation>Wählen Sie einen aktiven Mandanten.</translation>
        </message>
    </context>
    <context>
        <name>WindowStatus</name>
        <message>
            <source>Enter the admin PIN to change the station settings.</source>
            <translation>Geben Sie die Admin-PIN ein, um die Stationseinstellungen zu ändern.</translation>
        </message>
        <message>
            <source>Platform Station · {value}</source>
            <translation>Plattform-Station · {value}</translation>
        </message>
        <message>
            <source>Platform {url} is reachable.</source>
            <translation>Plattform {url} ist erreichbar.</translation>
        </message>
        <message>
            <source>The platform at {url} does not answer yet; checking again. You can still sign in with this station's data; changes are kept and sent when it is back.</source>
            <translation>Die Plattform unter {url} antwortet noch nicht; es wird erneut geprüft. Sie können sich trotzdem mit den Daten dieser Station anmelden; Änderungen werden gespeichert und gesendet, sobald sie wieder erreichbar ist.</translation>
        </message>
        <message>
            <source>No platform URL set: this station works on its own data.</source>
            <translation>Keine Plattform-URL festgelegt: Diese Station arbeitet mit ihren eigenen Daten.</translation>
        </message>
        <message>
            <source>1 sync issue</source>
            <translation>1 Synchronisierungsproblem</translation>
        </message>
        <message>
            <source>{count} sync issues</source>
            <translation>{count} Synchronisierungsprobleme</translation>
        </message>
        <message>
            <source>{text}
Platform: {value}. Changes waiting: {sync.waiting}.
Click (or Ctrl+Shift+S) for the Sync panel.</source>
            <translation>{text}
Plattform: {value}. Ausstehende Änderungen: {sync.waiting}.
Klicken (oder Strg+Umschalt+S) für die Synchronisierung.</translation>
        </message>
        <message>
            <source>not set</source>
            <translation>nicht festgelegt</translation>
        </message>
        <message>
            <source>Signed in here, but the platform refused these credentials; sync waits.</source>
            <translation>Hier angemeldet, aber die Plattform hat diese Zugangsdaten abgelehnt; die Synchronisierung wartet.</translation>
        </message>
    </context>
    <context>
        <name>sync_panel</name>
        <message>
            <source>The platform at {url} does not answer; try again when it is reachable.</source>
            <translation>Die Plattform unter {url} antwortet nicht; versuchen Sie es erneut, wenn sie erreichbar ist.</translation>
        </message>
        <message>
            <source>The platform did not accept your sign-in (it may have expired). Sign out, then sign in again.</source>
            <translation>Die Plattform hat Ihre Anmeldung nicht akzeptiert (sie ist vielleicht abgelaufen). Melden Sie sich ab und wieder an.</translation>
        </message>
        <message>
            <source>The platform refused: {message}. An owner can revoke the old registration on the platform.</source>
            <translation>Die Plattform hat abgelehnt: {message}. Ein Inhaber kann die alte Registrierung auf der Plattform widerrufen.</translation>
        </message>
        <message>
            <source>The platform refused: {message}.</source>
            <translation>Die Plattform hat abgelehnt: {message}.</translation>
        </message>
    </context>
</TS>
