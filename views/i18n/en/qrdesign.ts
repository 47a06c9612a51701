<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>ScanChart</name>
        <message numerus="yes">
            <source>%n scans · busiest {day}: {scans}</source>
            <translation>
                <numerusform>%n scan · busiest {day}: {scans}</numerusform>
                <numerusform>%n scans · busiest {day}: {scans}</numerusform>
            </translation>
        </message>
    </context>
</TS>
