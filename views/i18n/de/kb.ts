<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>KnowledgeBaseWorkspace</name>
    <message>
        <source>Search the knowledge base (Ctrl+F)</source>
        <translation>Wissensdatenbank durchsuchen (Strg+F)</translation>
    </message>
    <message>
        <source>All categories</source>
        <translation>Alle Kategorien</translation>
    </message>
    <message numerus="yes">
        <source>%n articles found</source>
        <translation>
            <numerusform>%n Artikel gefunden</numerusform>
            <numerusform>%n Artikel gefunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n articles</source>
        <translation>
            <numerusform>%n Artikel</numerusform>
            <numerusform>%n Artikel</numerusform>
        </translation>
    </message>
</context>
</TS>
