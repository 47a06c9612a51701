<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>ReasonDialog</name>
        <message>
            <source>Why did {machine} stop?</source>
            <translation>Warum hat {machine} angehalten?</translation>
        </message>
    </context>
    <context>
        <name>ShopFloorWorkspace</name>
        <message>
            <source>Scan a machine, then parts</source>
            <translation>Maschine scannen, dann Teile</translation>
        </message>
        <message>
            <source>5* then a scan counts five parts; SCRAP counts a scrap part</source>
            <translation>5* und dann ein Scan zählt fünf Teile; SCRAP zählt ein Ausschussteil</translation>
        </message>
        <message>
            <source>Scan a machine or touch its tile.</source>
            <translation>Scannen Sie eine Maschine oder tippen Sie auf ihre Kachel.</translation>
        </message>
        <message>
            <source>No machine chosen</source>
            <translation>Keine Maschine gewählt</translation>
        </message>
        <message>
            <source>F1 Start</source>
            <translation>F1 Start</translation>
        </message>
        <message>
            <source>F2 Pause</source>
            <translation>F2 Pause</translation>
        </message>
        <message>
            <source>F3 Done</source>
            <translation>F3 Fertig</translation>
        </message>
        <message>
            <source>F5 Good +1</source>
            <translation>F5 Gut +1</translation>
        </message>
        <message>
            <source>F6 Scrap +1</source>
            <translation>F6 Ausschuss +1</translation>
        </message>
        <message>
            <source>F7 Why stopped</source>
            <translation>F7 Stillstandsgrund</translation>
        </message>
        <message>
            <source>F8 Acknowledge</source>
            <translation>F8 Quittieren</translation>
        </message>
        <message>
            <source>Alarms</source>
            <translation>Alarme</translation>
        </message>
        <message>
            <source>ALARM</source>
            <translation>ALARM</translation>
        </message>
        <message>
            <source> of {n}</source>
            <translation> von {n}</translation>
        </message>
        <message>
            <source>Run: {r.product} ({status}) · {good}{planned} good, {scrap} scrap</source>
            <translation>Lauf: {r.product} ({status}) · {good}{planned} gut, {scrap} Ausschuss</translation>
        </message>
        <message>
            <source>No run in progress.</source>
            <translation>Kein Lauf aktiv.</translation>
        </message>
        <message>
            <source>Today: {value} good, {value2} scrap · OEE {value3} %</source>
            <translation>Heute: {value} gut, {value2} Ausschuss · OEE {value3} %</translation>
        </message>
        <message>
            <source> (not acknowledged)</source>
            <translation> (nicht quittiert)</translation>
        </message>
        <message>
            <source> (cleared, not acknowledged)</source>
            <translation> (behoben, nicht quittiert)</translation>
        </message>
        <message>
            <source>Not done: {exc}</source>
            <translation>Nicht ausgeführt: {exc}</translation>
        </message>
        <message>
            <source>Next scan counts {multiplier}.</source>
            <translation>Nächster Scan zählt {multiplier}.</translation>
        </message>
        <message>
            <source>{m.code} chosen: {status}.</source>
            <translation>{m.code} gewählt: {status}.</translation>
        </message>
        <message>
            <source>Choose a machine with a run first (scan the machine's code).</source>
            <translation>Wählen Sie zuerst eine Maschine mit einem Lauf (scannen Sie den Code der Maschine).</translation>
        </message>
        <message>
            <source>Choose a machine first.</source>
            <translation>Wählen Sie zuerst eine Maschine.</translation>
        </message>
        <message>
            <source>Resumed {r.product}.</source>
            <translation>{r.product} fortgesetzt.</translation>
        </message>
        <message>
            <source>Started {r.product}.</source>
            <translation>{r.product} gestartet.</translation>
        </message>
        <message>
            <source>No planned run for this machine.</source>
            <translation>Kein geplanter Lauf für diese Maschine.</translation>
        </message>
        <message>
            <source>{run.product} is running.</source>
            <translation>{run.product} läuft.</translation>
        </message>
        <message>
            <source>Paused {r.product}: pick the stop reason (F7).</source>
            <translation>{r.product} pausiert: Stillstandsgrund wählen (F7).</translation>
        </message>
        <message>
            <source>Completed {r.product}: {r.good_count} good, {r.scrap_count} scrap.</source>
            <translation>{r.product} fertig: {r.good_count} gut, {r.scrap_count} Ausschuss.</translation>
        </message>
        <message numerus="yes">
            <source>%n good counted</source>
            <translation>
                <numerusform>%n Gutteil gezählt</numerusform>
                <numerusform>%n Gutteile gezählt</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n scrap counted</source>
            <translation>
                <numerusform>%n Ausschussteil gezählt</numerusform>
                <numerusform>%n Ausschussteile gezählt</numerusform>
            </translation>
        </message>
        <message>
            <source>{what}{scanned}: {{r.good_count}} good, {{r.scrap_count}} scrap.</source>
            <translation>{what}{scanned}: {{r.good_count}} gut, {{r.scrap_count}} Ausschuss.</translation>
        </message>
        <message>
            <source>No alarm waits for acknowledgement here.</source>
            <translation>Hier wartet kein Alarm auf Quittierung.</translation>
        </message>
        <message>
            <source>Alarm {a.code} acknowledged.</source>
            <translation>Alarm {a.code} quittiert.</translation>
        </message>
    </context>
    <context>
        <name>StopReason</name>
        <message>
            <source>breakdown</source>
            <translation>Störung</translation>
        </message>
        <message>
            <source>changeover</source>
            <translation>Umrüsten</translation>
        </message>
        <message>
            <source>material shortage</source>
            <translation>Materialmangel</translation>
        </message>
        <message>
            <source>waiting for operator</source>
            <translation>Warten auf Bediener</translation>
        </message>
        <message>
            <source>quality check</source>
            <translation>Qualitätsprüfung</translation>
        </message>
        <message>
            <source>planned maintenance</source>
            <translation>geplante Wartung</translation>
        </message>
        <message>
            <source>cleaning</source>
            <translation>Reinigung</translation>
        </message>
        <message>
            <source>tooling</source>
            <translation>Werkzeugwechsel</translation>
        </message>
        <message>
            <source>blocked downstream</source>
            <translation>Folgeprozess blockiert</translation>
        </message>
        <message>
            <source>break</source>
            <translation>Pause</translation>
        </message>
        <message>
            <source>other</source>
            <translation>Sonstiges</translation>
        </message>
    </context>
    <context>
        <name>Workspaces</name>
        <message>
            <source>Shop floor</source>
            <translation>Fertigung</translation>
        </message>
    </context>
</TS>
