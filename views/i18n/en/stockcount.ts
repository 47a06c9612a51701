<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>StockCountWorkspace</name>
        <message numerus="yes">
            <source>{loc.code} · {loc.name} · %n items on the book</source>
            <translation>
                <numerusform>{loc.code} · {loc.name} · %n item on the book</numerusform>
                <numerusform>{loc.code} · {loc.name} · %n items on the book</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Post the count of {loc.code}: %n items, {differ} differ from the book?
The book is set to what was counted: this cannot be undone. (F5 again, or scanning {loc.code}, says yes.)</source>
            <translation>
                <numerusform>Post the count of {loc.code}: %n item, {differ} differ from the book?
The book is set to what was counted: this cannot be undone. (F5 again, or scanning {loc.code}, says yes.)</numerusform>
                <numerusform>Post the count of {loc.code}: %n items, {differ} differ from the book?
The book is set to what was counted: this cannot be undone. (F5 again, or scanning {loc.code}, says yes.)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>posted %n lines at {loc.code}</source>
            <translation>
                <numerusform>posted %n line at {loc.code}</numerusform>
                <numerusform>posted %n lines at {loc.code}</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✓ Count of {loc.code} posted: %n items, {changed} adjusted</source>
            <translation>
                <numerusform>✓ Count of {loc.code} posted: %n item, {changed} adjusted</numerusform>
                <numerusform>✓ Count of {loc.code} posted: %n items, {changed} adjusted</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{counted} of %n items counted · {differ} differ from the book</source>
            <translation>
                <numerusform>{counted} of %n item counted · {differ} differ from the book</numerusform>
                <numerusform>{counted} of %n items counted · {differ} differ from the book</numerusform>
            </translation>
        </message>
    </context>
</TS>
