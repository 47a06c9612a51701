<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Card</name>
    <message>
        <source>total {total}</source>
        <translation>gesamt {total}</translation>
    </message>
    <message>
        <source>worth {value}</source>
        <translation>im Wert von {value}</translation>
    </message>
    <message>
        <source>before {total} ({change})</source>
        <translation>vorher {total} ({change})</translation>
    </message>
    <message>
        <source>From Records: {what}. Click a bar to open them.</source>
        <translation>Aus den Datensätzen: {what}. Klicken Sie auf einen Balken, um sie zu öffnen.</translation>
    </message>
</context>
<context>
    <name>Chart</name>
    <message>
        <source>{kind} chart, total {total}</source>
        <translation>Diagramm ({kind}), gesamt {total}</translation>
    </message>
    <message>
        <source>Total: {total}</source>
        <translation>Gesamt: {total}</translation>
    </message>
    <message>
        <source>No data yet</source>
        <translation>Noch keine Daten</translation>
    </message>
</context>
<context>
    <name>DashboardTitles</name>
    <message>
        <source>Operations</source>
        <translation>Betrieb</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>Verkauf</translation>
    </message>
    <message>
        <source>Orders shipped per day</source>
        <translation>Versendete Aufträge pro Tag</translation>
    </message>
    <message>
        <source>Tickets opened</source>
        <translation>Eröffnete Tickets</translation>
    </message>
    <message>
        <source>Trade-ins accepted</source>
        <translation>Angenommene Ankäufe</translation>
    </message>
    <message>
        <source>QR scans per week</source>
        <translation>QR-Scans pro Woche</translation>
    </message>
    <message>
        <source>Revenue (30 days)</source>
        <translation>Umsatz (30 Tage)</translation>
    </message>
    <message>
        <source>Revenue per day</source>
        <translation>Umsatz pro Tag</translation>
    </message>
    <message>
        <source>Revenue by channel</source>
        <translation>Umsatz nach Kanal</translation>
    </message>
</context>
<context>
    <name>DashboardsWorkspace</name>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>in the last 7 days</source>
        <translation>in den letzten 7 Tagen</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>in the last 30 days</source>
        <translation>in den letzten 30 Tagen</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>Letzte 90 Tage</translation>
    </message>
    <message>
        <source>in the last 90 days</source>
        <translation>in den letzten 90 Tagen</translation>
    </message>
    <message>
        <source>Dashboards</source>
        <translation>Dashboards</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>Dashboard</translation>
    </message>
    <message>
        <source>Date range</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Compare with the period before</source>
        <translation>Mit dem Zeitraum davor vergleichen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>No dashboards yet. An owner or admin makes them (Records → Analytics → Dashboards → New…).</source>
        <translation>Noch keine Dashboards. Inhaber oder Administratoren legen sie an (Datensätze → Auswertungen → Dashboards → Neu…).</translation>
    </message>
    <message>
        <source>{card} is counted by Analytics, not from records: nothing to open.</source>
        <translation>{card} wird von den Auswertungen gezählt, nicht aus Datensätzen: Es gibt nichts zu öffnen.</translation>
    </message>
    <message>
        <source>in the week of {day}</source>
        <translation>in der Woche vom {day}</translation>
    </message>
    <message>
        <source>on {day}</source>
        <translation>am {day}</translation>
    </message>
    <message>
        <source>{count} {what} {when}</source>
        <translation>{count} {what} {when}</translation>
    </message>
    <message>
        <source>Records is not open to you here.</source>
        <translation>Die Datensätze stehen Ihnen hier nicht zur Verfügung.</translation>
    </message>
</context>
<context>
    <name>charts</name>
    <message>
        <source>M</source>
        <comment>millions</comment>
        <translation> Mio.</translation>
    </message>
    <message>
        <source>k</source>
        <comment>thousands</comment>
        <translation> Tsd.</translation>
    </message>
</context>
<context>
    <name>figures</name>
    <message>
        <source>orders shipped</source>
        <translation>versandte Aufträge</translation>
    </message>
    <message>
        <source>tickets opened</source>
        <translation>eröffnete Tickets</translation>
    </message>
    <message>
        <source>QR scans</source>
        <translation>QR-Scans</translation>
    </message>
    <message>
        <source>trade-ins accepted</source>
        <translation>angenommene Ankäufe</translation>
    </message>
</context>
</TS>
