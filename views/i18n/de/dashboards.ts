<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
    <context>
        <name>Card</name>
        <message>
            <location filename="../../dashboards/workspace.py" line="142" />
            <source>total {total}</source>
            <translation>gesamt {total}</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="146" />
            <source>before {total} ({change})</source>
            <translation>vorher {total} ({change})</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="155" />
            <source>From Records: {what}. Click a bar to open them.</source>
            <translation>Aus den Datensätzen: {what}. Klicken Sie auf einen Balken, um sie zu öffnen.</translation>
        </message>
    </context>
    <context>
        <name>Chart</name>
        <message>
            <location filename="../../dashboards/charts.py" line="73" />
            <source>{kind} chart, total {total}</source>
            <translation>Diagramm ({kind}), gesamt {total}</translation>
        </message>
        <message>
            <location filename="../../dashboards/charts.py" line="125" />
            <source>Total: {total}</source>
            <translation>Gesamt: {total}</translation>
        </message>
        <message>
            <location filename="../../dashboards/charts.py" line="141" />
            <source>No data yet</source>
            <translation>Noch keine Daten</translation>
        </message>
    </context>
    <context>
        <name>DashboardsWorkspace</name>
        <message>
            <location filename="../../dashboards/workspace.py" line="52" />
            <source>Last 7 days</source>
            <translation>Letzte 7 Tage</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="54" />
            <source>in the last 7 days</source>
            <translation>in den letzten 7 Tagen</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="57" />
            <source>Last 30 days</source>
            <translation>Letzte 30 Tage</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="59" />
            <source>in the last 30 days</source>
            <translation>in den letzten 30 Tagen</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="62" />
            <source>Last 90 days</source>
            <translation>Letzte 90 Tage</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="64" />
            <source>in the last 90 days</source>
            <translation>in den letzten 90 Tagen</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="177" />
            <source>Dashboards</source>
            <translation>Dashboards</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="181" />
            <source>Dashboard</source>
            <translation>Dashboard</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="187" />
            <source>Date range</source>
            <translation>Zeitraum</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="193" />
            <source>Compare with the period before</source>
            <translation>Mit dem Zeitraum davor vergleichen</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="196" />
            <source>Refresh</source>
            <translation>Aktualisieren</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="201" />
            <source>No dashboards yet. An owner or admin makes them (Records → Analytics → Dashboards → New…).</source>
            <translation>Noch keine Dashboards. Inhaber oder Administratoren legen sie an (Datensätze → Auswertungen → Dashboards → Neu…).</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="277" />
            <source>{card} is counted by Analytics, not from records: nothing to open.</source>
            <translation>{card} wird von den Auswertungen gezählt, nicht aus Datensätzen: Es gibt nichts zu öffnen.</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="289" />
            <source>in the week of {day}</source>
            <translation>in der Woche vom {day}</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="291" />
            <source>on {day}</source>
            <translation>am {day}</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="293" />
            <source>{count} {what} {when}</source>
            <translation>{count} {what} {when}</translation>
        </message>
        <message>
            <location filename="../../dashboards/workspace.py" line="297" />
            <source>Records is not open to you here.</source>
            <translation>Die Datensätze stehen Ihnen hier nicht zur Verfügung.</translation>
        </message>
    </context>
    <context>
        <name>charts</name>
        <message>
            <location filename="../../dashboards/charts.py" line="31" />
            <source>M</source>
            <comment>millions</comment>
            <translation> Mio.</translation>
        </message>
        <message>
            <location filename="../../dashboards/charts.py" line="33" />
            <source>k</source>
            <comment>thousands</comment>
            <translation> Tsd.</translation>
        </message>
    </context>
    <context>
        <name>figures</name>
        <message>
            <location filename="../../dashboards/figures.py" line="97" />
            <source>orders shipped</source>
            <translation>versandte Bestellungen</translation>
        </message>
        <message>
            <location filename="../../dashboards/figures.py" line="101" />
            <source>tickets opened</source>
            <translation>eröffnete Tickets</translation>
        </message>
        <message>
            <location filename="../../dashboards/figures.py" line="104" />
            <source>QR scans</source>
            <translation>QR-Scans</translation>
        </message>
    </context>
</TS>
