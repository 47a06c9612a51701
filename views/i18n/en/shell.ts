<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>SyncWords</name>
        <message numerus="yes">
            <source>%n change(s) waiting</source>
            <translation>
                <numerusform>%n change waiting</numerusform>
                <numerusform>%n changes waiting</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n fetched</source>
            <translation>
                <numerusform>%n fetched</numerusform>
                <numerusform>%n fetched</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n removed</source>
            <translation>
                <numerusform>%n removed</numerusform>
                <numerusform>%n removed</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n sync issue(s)</source>
            <translation>
                <numerusform>%n sync issue</numerusform>
                <numerusform>%n sync issues</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Syncing… %n change(s) to send</source>
            <translation>
                <numerusform>Syncing… %n change to send</numerusform>
                <numerusform>Syncing… %n changes to send</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %n more change(s)</source>
            <translation>
                <numerusform>… and %n more change</numerusform>
                <numerusform>… and %n more changes</numerusform>
            </translation>
        </message>
    </context>
</TS>
