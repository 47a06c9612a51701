<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Workspaces</name>
    <message>
        <source>Admin</source>
        <translation>Verwaltung</translation>
    </message>
    <message>
        <source>Dashboards</source>
        <translation>Dashboards</translation>
    </message>
    <message>
        <source>Helpdesk</source>
        <translation>Helpdesk</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <source>QR designer</source>
        <translation>QR-Designer</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation>Prüfwarteschlange</translation>
    </message>
    <message>
        <source>Shop floor</source>
        <translation>Fertigung</translation>
    </message>
    <message>
        <source>Stock count</source>
        <translation>Inventur</translation>
    </message>
    <message>
        <source>Trade-in inspection</source>
        <translation>Ankaufsprüfung</translation>
    </message>
    <message>
        <source>Warehouse scanning</source>
        <translation>Lager-Scannen</translation>
    </message>
</context>
</TS>
