<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>Palette</name>
        <message numerus="yes">
            <source>%Ln found</source>
            <translation>
                <numerusform>%Ln found</numerusform>
                <numerusform>%Ln found</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RecordsWorkspace</name>
        <message numerus="yes">
            <source>%Ln records</source>
            <translation>
                <numerusform>%Ln record</numerusform>
                <numerusform>%Ln records</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{loaded} of %Ln records</source>
            <translation>
                <numerusform>{loaded} of %Ln record</numerusform>
                <numerusform>{loaded} of %Ln records</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Exported %Ln rows to {file}</source>
            <translation>
                <numerusform>Exported %Ln row to {file}</numerusform>
                <numerusform>Exported %Ln rows to {file}</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>records</name>
        <message numerus="yes">
            <source>%Ln more</source>
            <translation>
                <numerusform>%Ln more</numerusform>
                <numerusform>%Ln more</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n linked</source>
            <translation>
                <numerusform>%n linked</numerusform>
                <numerusform>%n linked</numerusform>
            </translation>
        </message>
    </context>
</TS>
