<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>TicketTab</name>
        <message numerus="yes">
            <source>%n file(s) attached</source>
            <translation>
                <numerusform>%n file attached</numerusform>
                <numerusform>%n files attached</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ticket</name>
        <message numerus="yes">
            <source>%n days</source>
            <translation>
                <numerusform>%n day</numerusform>
                <numerusform>%n days</numerusform>
            </translation>
        </message>
    </context>
</TS>
