<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>ShopFloorWorkspace</name>
        <message numerus="yes">
            <source>%n good counted</source>
            <translation>
                <numerusform>%n good part counted</numerusform>
                <numerusform>%n good parts counted</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n scrap counted</source>
            <translation>
                <numerusform>%n scrap part counted</numerusform>
                <numerusform>%n scrap parts counted</numerusform>
            </translation>
        </message>
    </context>
</TS>
