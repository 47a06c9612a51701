<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>AdminWorkspace</name>
        <message numerus="yes">
            <source>%n modules enabled</source>
            <translation>
                <numerusform>%n module enabled</numerusform>
                <numerusform>%n modules enabled</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ModulesPanel</name>
        <message numerus="yes">
            <source>Saved: %n modules enabled.</source>
            <translation>
                <numerusform>Saved: %n module enabled.</numerusform>
                <numerusform>Saved: %n modules enabled.</numerusform>
            </translation>
        </message>
    </context>
</TS>
