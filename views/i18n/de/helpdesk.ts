<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>HelpdeskQueues</name>
        <message>
            <source>New</source>
            <translation>Neu</translation>
        </message>
        <message>
            <source>Mine</source>
            <translation>Meine</translation>
        </message>
        <message>
            <source>Unassigned</source>
            <translation>Nicht zugewiesen</translation>
        </message>
        <message>
            <source>Waiting on customer</source>
            <translation>Wartet auf Kunden</translation>
        </message>
        <message>
            <source>Breaching SLA</source>
            <translation>SLA verletzt</translation>
        </message>
        <message>
            <source>All tickets</source>
            <translation>Alle Tickets</translation>
        </message>
    </context>
    <context>
        <name>HelpdeskWorkspace</name>
        <message>
            <source>Search all queues (Ctrl+F)</source>
            <translation>Überall suchen (Strg+F)</translation>
        </message>
        <message>
            <source>Number, subject, e-mail or words of any message; Enter searches</source>
            <translation>Nummer, Betreff, E-Mail oder Wörter einer Nachricht; Enter sucht</translation>
        </message>
        <message>
            <source>Number</source>
            <translation>Nummer</translation>
        </message>
        <message>
            <source>Subject</source>
            <translation>Betreff</translation>
        </message>
        <message>
            <source>Requester</source>
            <translation>Anfragender</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Priority</source>
            <translation>Priorität</translation>
        </message>
        <message>
            <source>SLA</source>
            <translation>SLA</translation>
        </message>
        <message>
            <source>Search “{text}” in all queues</source>
            <translation>„{text}“ in allen Warteschlangen suchen</translation>
        </message>
    </context>
    <context>
        <name>Keys</name>
        <message>
            <source>send</source>
            <translation>senden</translation>
        </message>
        <message>
            <source>internal note</source>
            <translation>interne Notiz</translation>
        </message>
        <message>
            <source>apply changes</source>
            <translation>Änderungen übernehmen</translation>
        </message>
        <message>
            <source>search</source>
            <translation>suchen</translation>
        </message>
        <message>
            <source>refresh</source>
            <translation>aktualisieren</translation>
        </message>
        <message>
            <source>close the tab</source>
            <translation>Tab schließen</translation>
        </message>
    </context>
    <context>
        <name>MessageView</name>
        <message>
            <source>Internal note</source>
            <translation>Interne Notiz</translation>
        </message>
        <message>
            <source>Reply</source>
            <translation>Antwort</translation>
        </message>
        <message>
            <source>Customer</source>
            <translation>Kunde</translation>
        </message>
        <message>
            <source>📎 {a.filename} ({a.size} bytes)</source>
            <translation>📎 {a.filename} ({a.size} Bytes)</translation>
        </message>
    </context>
    <context>
        <name>TicketTab</name>
        <message>
            <source>Loading…</source>
            <translation>Wird geladen…</translation>
        </message>
        <message>
            <source>Apply</source>
            <translation>Übernehmen</translation>
        </message>
        <message>
            <source>Save state, priority, category and assignee (Ctrl+S)</source>
            <translation>Status, Priorität, Kategorie und Bearbeiter speichern (Strg+S)</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Priority</source>
            <translation>Priorität</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>Kategorie</translation>
        </message>
        <message>
            <source>Assignee</source>
            <translation>Bearbeiter</translation>
        </message>
        <message>
            <source>Reply to the customer… (Ctrl+Enter sends, Ctrl+I switches to internal note)</source>
            <translation>Antwort an den Kunden… (Strg+Enter sendet, Strg+I wechselt zur internen Notiz)</translation>
        </message>
        <message>
            <source>Internal note</source>
            <translation>Interne Notiz</translation>
        </message>
        <message>
            <source>Canned response…</source>
            <translation>Textbaustein…</translation>
        </message>
        <message>
            <source>Attach…</source>
            <translation>Anhängen…</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>Senden</translation>
        </message>
        <message>
            <source>Triage: waiting…</source>
            <translation>Einstufung: wartet…</translation>
        </message>
        <message>
            <source>Apply ticked suggestions</source>
            <translation>Angehakte Vorschläge übernehmen</translation>
        </message>
        <message>
            <source>Suggest reply</source>
            <translation>Antwort vorschlagen</translation>
        </message>
        <message>
            <source>Suggestions</source>
            <translation>Vorschläge</translation>
        </message>
        <message>
            <source>Articles: looking…</source>
            <translation>Artikel: wird gesucht…</translation>
        </message>
        <message>
            <source>Insert link (Ctrl+K)</source>
            <translation>Link einfügen (Strg+K)</translation>
        </message>
        <message>
            <source>Insert text (Ctrl+Shift+K)</source>
            <translation>Text einfügen (Strg+Umschalt+K)</translation>
        </message>
        <message>
            <source>Knowledge base</source>
            <translation>Wissensdatenbank</translation>
        </message>
        <message>
            <source>Requester's tickets</source>
            <translation>Tickets des Anfragenden</translation>
        </message>
        <message>
            <source>  [PROVISIONAL number until synced]</source>
            <translation>  [VORLÄUFIGE Nummer bis zur Synchronisierung]</translation>
        </message>
        <message>
            <source>&lt;b&gt;{t.number}&lt;/b&gt;{mark} — {t.subject}&lt;br&gt;{t.requester_name} &amp;lt;{t.requester_email}&amp;gt;</source>
            <translation>&lt;b&gt;{t.number}&lt;/b&gt;{mark} — {t.subject}&lt;br&gt;{t.requester_name} &amp;lt;{t.requester_email}&amp;gt;</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>(keine)</translation>
        </message>
        <message>
            <source>(unassigned)</source>
            <translation>(nicht zugewiesen)</translation>
        </message>
        <message>
            <source>Articles: the knowledge base is not among your modules.</source>
            <translation>Artikel: Die Wissensdatenbank gehört nicht zu Ihren Modulen.</translation>
        </message>
        <message>
            <source>Articles: {value}</source>
            <translation>Artikel: {value}</translation>
        </message>
        <message>
            <source>Ctrl+K inserts a link to the chosen article, Ctrl+Shift+K its text.</source>
            <translation>Strg+K fügt einen Link zum gewählten Artikel ein, Strg+Umschalt+K seinen Text.</translation>
        </message>
        <message>
            <source>Articles: none match this ticket.</source>
            <translation>Artikel: Keiner passt zu diesem Ticket.</translation>
        </message>
        <message>
            <source>No other tickets from {requester_email}.</source>
            <translation>Keine weiteren Tickets von {requester_email}.</translation>
        </message>
        <message>
            <source>First response</source>
            <translation>Erste Antwort</translation>
        </message>
        <message>
            <source>Resolution</source>
            <translation>Lösung</translation>
        </message>
        <message>
            <source>Add note</source>
            <translation>Notiz hinzufügen</translation>
        </message>
        <message>
            <source>Internal note, not sent to the customer… (Ctrl+Enter adds it, Ctrl+I switches to reply)</source>
            <translation>Interne Notiz, geht nicht an den Kunden… (Strg+Enter fügt sie hinzu, Strg+I wechselt zur Antwort)</translation>
        </message>
        <message>
            <source>Attach a file</source>
            <translation>Datei anhängen</translation>
        </message>
        <message numerus="yes">
            <source>%n file(s) attached</source>
            <translation>
                <numerusform>%n Datei angehängt</numerusform>
                <numerusform>%n Dateien angehängt</numerusform>
            </translation>
        </message>
        <message>
            <source>Note added</source>
            <translation>Notiz hinzugefügt</translation>
        </message>
        <message>
            <source>Reply sent</source>
            <translation>Antwort gesendet</translation>
        </message>
        <message>
            <source>No suggestion: the evidence is too weak (score {score}).</source>
            <translation>Kein Vorschlag: Die Hinweise sind zu schwach (Wert {score}).</translation>
        </message>
        <message>
            <source>Score {score} · because of: {terms}&lt;br&gt;Category: &lt;b&gt;{g.category_name}&lt;/b&gt; (score {category_score})&lt;br&gt;Priority: &lt;b&gt;{priority}&lt;/b&gt; (score {priority_score})</source>
            <translation>Wert {score} · wegen: {terms}&lt;br&gt;Kategorie: &lt;b&gt;{g.category_name}&lt;/b&gt; (Wert {category_score})&lt;br&gt;Priorität: &lt;b&gt;{priority}&lt;/b&gt; (Wert {priority_score})</translation>
        </message>
        <message>
            <source>Priority: {priority}</source>
            <translation>Priorität: {priority}</translation>
        </message>
        <message>
            <source>Category: {g.category_name}</source>
            <translation>Kategorie: {g.category_name}</translation>
        </message>
        <message>
            <source>From {r.source_number} (similarity {score})</source>
            <translation>Aus {r.source_number} (Ähnlichkeit {score})</translation>
        </message>
        <message>
            <source>No similar resolved ticket has a reply yet</source>
            <translation>Noch kein ähnliches gelöstes Ticket hat eine Antwort</translation>
        </message>
    </context>
    <context>
        <name>TicketWords</name>
        <message>
            <source>low</source>
            <translation>niedrig</translation>
        </message>
        <message>
            <source>normal</source>
            <translation>normal</translation>
        </message>
        <message>
            <source>high</source>
            <translation>hoch</translation>
        </message>
        <message>
            <source>urgent</source>
            <translation>dringend</translation>
        </message>
        <message>
            <source>open</source>
            <translation>offen</translation>
        </message>
        <message>
            <source>pending</source>
            <translation>wartend</translation>
        </message>
        <message>
            <source>resolved</source>
            <translation>gelöst</translation>
        </message>
        <message>
            <source>closed</source>
            <translation>geschlossen</translation>
        </message>
    </context>
    <context>
        <name>Workspaces</name>
        <message>
            <source>Helpdesk</source>
            <translation>Helpdesk</translation>
        </message>
    </context>
    <context>
        <name>ticket</name>
        <message>
            <source>1 day {h} h</source>
            <translation>1 Tag {h} h</translation>
        </message>
        <message>
            <source>1 day</source>
            <translation>1 Tag</translation>
        </message>
        <message>
            <source>under 1 min</source>
            <translation>unter 1 min</translation>
        </message>
        <message numerus="yes">
            <source>%n days</source>
            <translation>
                <numerusform>%n Tag</numerusform>
                <numerusform>%n Tage</numerusform>
            </translation>
        </message>
        <message>
            <source>{label}: met late ({when})</source>
            <translation>{label}: verspätet erfüllt ({when})</translation>
        </message>
        <message>
            <source>{label}: met ({when})</source>
            <translation>{label}: erfüllt ({when})</translation>
        </message>
        <message>
            <source>{label}: no target</source>
            <translation>{label}: kein Ziel</translation>
        </message>
        <message>
            <source>{label}: due in {value}</source>
            <translation>{label}: fällig in {value}</translation>
        </message>
        <message>
            <source>{label}: BREACHED {value} ago</source>
            <translation>{label}: ÜBERSCHRITTEN vor {value}</translation>
        </message>
    </context>
    <context>
        <name>workspace</name>
        <message>
            <source>overdue {text}</source>
            <translation>überfällig seit {text}</translation>
        </message>
        <message>
            <source>due in {text}</source>
            <translation>fällig in {text}</translation>
        </message>
    </context>
</TS>
