<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>KnowledgeBaseWorkspace</name>
        <message numerus="yes">
            <source>%n articles found</source>
            <translation>
                <numerusform>%n article found</numerusform>
                <numerusform>%n articles found</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n articles</source>
            <translation>
                <numerusform>%n article</numerusform>
                <numerusform>%n articles</numerusform>
            </translation>
        </message>
    </context>
</TS>
