<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
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
            <source>The two PINs differ.</source>
            <translation>Die beiden PINs stimmen nicht überein.</translation>
        </message>
    </context>
</TS>
