<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>BatchPicking</name>
        <message>
            <source>✗ not an order of {b.batch_number}</source>
            <translation>✗ kein Auftrag von {b.batch_number}</translation>
        </message>
        <message>
            <source>{code} is not an order of batch {b.batch_number}: scan one of its orders to pack it</source>
            <translation>{code} ist kein Auftrag der Sammelliste {b.batch_number}: Scannen Sie einen ihrer Aufträge, um ihn zu packen</translation>
        </message>
        <message>
            <source>packing {order} (slot {slot})</source>
            <translation>packe {order} (Fach {slot})</translation>
        </message>
        <message>
            <source>Pack {order} from slot {slot}: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>{order} aus Fach {slot} packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>Batch {b.batch_number} is {b.status}: nothing to scan. Esc leaves it</source>
            <translation>Sammelliste {b.batch_number} ist {b.status}: nichts zu scannen. Esc verlässt sie</translation>
        </message>
        <message>
            <source>nothing left here</source>
            <translation>hier nichts mehr</translation>
        </message>
        <message>
            <source>at {batch_location}</source>
            <translation>an {batch_location}</translation>
        </message>
        <message>
            <source>At {batch_location}: {what}</source>
            <translation>An {batch_location}: {what}</translation>
        </message>
        <message>
            <source>opened {b.batch_number}</source>
            <translation>{b.batch_number} geöffnet</translation>
        </message>
        <message>
            <source>scan the items</source>
            <translation>Artikel scannen</translation>
        </message>
        <message>
            <source>Batch {b.batch_number}: {count} orders, {b.unit_count} units — {where}</source>
            <translation>Sammelliste {b.batch_number}: {count} Aufträge, {b.unit_count} Einheiten — {where}</translation>
        </message>
        <message>
            <source>Batch {b.batch_number} is picked: scan an order to pack it</source>
            <translation>Sammelliste {b.batch_number} ist kommissioniert: Scannen Sie einen Auftrag, um ihn zu packen</translation>
        </message>
        <message>
            <source>Batch {b.batch_number} is {b.status}</source>
            <translation>Sammelliste {b.batch_number} ist {b.status}</translation>
        </message>
        <message>
            <source>✓ Put it in {slots}. Batch picked: scan an order to pack it</source>
            <translation>✓ In {slots} legen. Sammelliste kommissioniert: Scannen Sie einen Auftrag, um ihn zu packen</translation>
        </message>
        <message>
            <source>✓ Put it in {slots}  ·  {res.picked_units} of {res.unit_count} units</source>
            <translation>✓ In {slots} legen  ·  {res.picked_units} von {res.unit_count} Einheiten</translation>
        </message>
        <message>
            <source>serial needed</source>
            <translation>Seriennummer nötig</translation>
        </message>
        <message>
            <source>Scan the serial number of this {name}</source>
            <translation>Scannen Sie die Seriennummer dieses Artikels: {name}</translation>
        </message>
        <message>
            <source>Scan an order of the batch first: F1-F4 packs it</source>
            <translation>Scannen Sie zuerst einen Auftrag der Sammelliste: F1–F4 packt ihn</translation>
        </message>
        <message>
            <source>Batch {b.batch_number} is {b.status}: pick every unit before packing</source>
            <translation>Sammelliste {b.batch_number} ist {b.status}: Kommissionieren Sie jede Einheit vor dem Packen</translation>
        </message>
        <message>
            <source>packed {order}</source>
            <translation>{order} gepackt</translation>
        </message>
        <message>
            <source>Packed {order} in box {box}. Batch {res.batch_number} is packed: scan each order, F5 ships</source>
            <translation>{order} in Karton {box} gepackt. Sammelliste {res.batch_number} ist gepackt: Scannen Sie jeden Auftrag, F5 versendet</translation>
        </message>
        <message>
            <source>Packed {order} in box {box}: scan the next order</source>
            <translation>{order} in Karton {box} gepackt: Scannen Sie den nächsten Auftrag</translation>
        </message>
        <message>
            <source>Batch {b.batch_number} · {value} · {b.picked_units}/{b.unit_count} units · {packed}/{count} orders packed</source>
            <translation>Sammelliste {b.batch_number} · {value} · {b.picked_units}/{b.unit_count} Einheiten · {packed}/{count} Aufträge gepackt</translation>
        </message>
    </context>
    <context>
        <name>FloorWork</name>
        <message>
            <source>Scan the lot code of this {name}</source>
            <translation>Scannen Sie die Chargennummer dieses Artikels: {name}</translation>
        </message>
        <message>
            <source>Scan the serial number of this {name}</source>
            <translation>Scannen Sie die Seriennummer dieses Artikels: {name}</translation>
        </message>
        <message>
            <source>Lot {lot.code} is of {lot.sku}, not this {line.name}</source>
            <translation>Charge {lot.code} gehört zu {lot.sku}, nicht zu {line.name}</translation>
        </message>
        <message>
            <source>Lot {lot.code} has nothing in stock</source>
            <translation>Charge {lot.code} hat keinen Bestand</translation>
        </message>
        <message>
            <source>{problem}. Scan the lot code on the unit in your hand.</source>
            <translation>{problem}. Scannen Sie die Chargennummer auf dem Artikel in Ihrer Hand.</translation>
        </message>
        <message>
            <source>✓ lot {lot.code} of {line.sku}</source>
            <translation>✓ Charge {lot.code} von {line.sku}</translation>
        </message>
        <message>
            <source>✓ Lot {lot.code}. All items verified — pack: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>✓ Charge {lot.code}. Alle Positionen geprüft — packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>✓ {line.name}: lot {lot.code}</source>
            <translation>✓ {line.name}: Charge {lot.code}</translation>
        </message>
        <message>
            <source>{msg}. Scan the lot code of this {line.name}.</source>
            <translation>{msg}. Scannen Sie die Chargennummer dieses Artikels: {line.name}.</translation>
        </message>
        <message>
            <source>Serial {sn.serial} is a {sn.sku}, not this {line.name}</source>
            <translation>Seriennummer {sn.serial} gehört zu {sn.sku}, nicht zu {line.name}</translation>
        </message>
        <message>
            <source>Serial {sn.serial} is not in stock (it {value})</source>
            <translation>Seriennummer {sn.serial} ist nicht im Bestand ({value})</translation>
        </message>
        <message>
            <source>Serial {sn.serial} is scanned on this order already</source>
            <translation>Seriennummer {sn.serial} ist in diesem Auftrag bereits gescannt</translation>
        </message>
        <message>
            <source>{problem}. Scan the serial of the unit in your hand.</source>
            <translation>{problem}. Scannen Sie die Seriennummer des Geräts in Ihrer Hand.</translation>
        </message>
        <message>
            <source>✓ serial {sn.serial} of {line.sku}</source>
            <translation>✓ Seriennummer {sn.serial} von {line.sku}</translation>
        </message>
        <message>
            <source>✓ Serial {sn.serial}. All items verified — pack: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>✓ Seriennummer {sn.serial}. Alle Positionen geprüft — packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>✓ {line.name}: serial {sn.serial}</source>
            <translation>✓ {line.name}: Seriennummer {sn.serial}</translation>
        </message>
        <message>
            <source>{msg}. Scan the serial number of this {line.name}.</source>
            <translation>{msg}. Scannen Sie die Seriennummer dieses Artikels: {line.name}.</translation>
        </message>
        <message>
            <source>F7 ships part of an order: open a pending order and scan what ships now</source>
            <translation>F7 versendet einen Teil eines Auftrags: Öffnen Sie einen offenen Auftrag und scannen Sie, was jetzt versendet wird</translation>
        </message>
        <message>
            <source>Nothing of {o.order_number} is scanned: scan what ships now, then F7</source>
            <translation>Von {o.order_number} ist nichts gescannt: Scannen Sie, was jetzt versendet wird, dann F7</translation>
        </message>
        <message>
            <source>Ship part of this order?</source>
            <translation>Teil dieses Auftrags versenden?</translation>
        </message>
        <message>
            <source>Ship the {done} scanned items of {o.order_number} and make a backorder of the other {value}?
This cannot be undone. (F7 again or scanning {o.order_number} says yes.)</source>
            <translation>Die {done} gescannten Artikel von {o.order_number} versenden und für die übrigen {value} einen Rückstandsauftrag anlegen?
Das lässt sich nicht rückgängig machen. (Erneut F7 oder {o.order_number} scannen bestätigt.)</translation>
        </message>
        <message>
            <source>kept {o.order_number} whole</source>
            <translation>{o.order_number} vollständig behalten</translation>
        </message>
        <message>
            <source>{o.order_number} stays whole: scan the rest</source>
            <translation>{o.order_number} bleibt vollständig: Scannen Sie den Rest</translation>
        </message>
        <message>
            <source>split {res.order_number}{rest}</source>
            <translation>{res.order_number} aufgeteilt{rest}</translation>
        </message>
        <message>
            <source>✓ {res.order_number} ships what is scanned{rest}. Pack it: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>✓ {res.order_number} versendet das Gescannte{rest}. Packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>F9 marks a returned item damaged: scan an RMA number first</source>
            <translation>F9 markiert einen zurückgesandten Artikel als beschädigt: Scannen Sie zuerst eine RMA-Nummer</translation>
        </message>
        <message>
            <source>Next item: DAMAGED (goes to quarantine). Scan it</source>
            <translation>Nächster Artikel: BESCHÄDIGT (kommt in Quarantäne). Jetzt scannen</translation>
        </message>
        <message>
            <source>Next item: resellable (back into stock). Scan it</source>
            <translation>Nächster Artikel: wiederverkaufbar (zurück in den Bestand). Jetzt scannen</translation>
        </message>
        <message>
            <source>✓ received {condition} on {r.rma_number}</source>
            <translation>✓ {condition} angenommen auf {r.rma_number}</translation>
        </message>
        <message>
            <source>quarantine</source>
            <translation>Quarantäne</translation>
        </message>
        <message>
            <source>back into stock</source>
            <translation>zurück in den Bestand</translation>
        </message>
        <message>
            <source> — all received</source>
            <translation> — alles angenommen</translation>
        </message>
        <message>
            <source>left {rma.rma_number}</source>
            <translation>{rma.rma_number} verlassen</translation>
        </message>
        <message>
            <source>opened {r.rma_number}</source>
            <translation>{r.rma_number} geöffnet</translation>
        </message>
        <message>
            <source>{r.rma_number} is received already: nothing left to scan</source>
            <translation>{r.rma_number} ist bereits angenommen: Es ist nichts mehr zu scannen</translation>
        </message>
        <message>
            <source>Return {r.rma_number} of {r.order_number}: scan each item (F9: the next is damaged)</source>
            <translation>Rücksendung {r.rma_number} zu {r.order_number}: Scannen Sie jeden Artikel (F9: der nächste ist beschädigt)</translation>
        </message>
        <message>
            <source>{r.rma_number} · return of {r.order_number} · {value}</source>
            <translation>{r.rma_number} · Rücksendung zu {r.order_number} · {value}</translation>
        </message>
    </context>
    <context>
        <name>Keys</name>
        <message>
            <source>F1 pack in box S</source>
            <translation>F1 in Karton S packen</translation>
        </message>
        <message>
            <source>F2 pack in box M</source>
            <translation>F2 in Karton M packen</translation>
        </message>
        <message>
            <source>F3 pack in box L</source>
            <translation>F3 in Karton L packen</translation>
        </message>
        <message>
            <source>F4 pack in box XL</source>
            <translation>F4 in Karton XL packen</translation>
        </message>
        <message>
            <source>F5 ship</source>
            <translation>F5 versenden</translation>
        </message>
        <message>
            <source>F6 print again</source>
            <translation>F6 erneut drucken</translation>
        </message>
        <message>
            <source>F8 next order</source>
            <translation>F8 nächster Auftrag</translation>
        </message>
        <message>
            <source>Ctrl+Z undo</source>
            <translation>Strg+Z rückgängig</translation>
        </message>
        <message>
            <source>cancel</source>
            <translation>stornieren</translation>
        </message>
        <message>
            <source>box S</source>
            <translation>Karton S</translation>
        </message>
        <message>
            <source>box M</source>
            <translation>Karton M</translation>
        </message>
        <message>
            <source>box L</source>
            <translation>Karton L</translation>
        </message>
        <message>
            <source>box XL</source>
            <translation>Karton XL</translation>
        </message>
        <message>
            <source>ship</source>
            <translation>versenden</translation>
        </message>
        <message>
            <source>print again</source>
            <translation>erneut drucken</translation>
        </message>
        <message>
            <source>ship part</source>
            <translation>Teil versenden</translation>
        </message>
        <message>
            <source>next order</source>
            <translation>nächster Auftrag</translation>
        </message>
        <message>
            <source>return damaged</source>
            <translation>Rücksendung beschädigt</translation>
        </message>
        <message>
            <source>undo scan</source>
            <translation>Scan rückgängig</translation>
        </message>
        <message>
            <source>close</source>
            <translation>schließen</translation>
        </message>
    </context>
    <context>
        <name>LabelPrinting</name>
        <message>
            <source>No label yet: ship an order first</source>
            <translation>Noch kein Etikett: Versenden Sie zuerst einen Auftrag</translation>
        </message>
        <message>
            <source>Printing the label {value} again…</source>
            <translation>Etikett {value} wird erneut gedruckt…</translation>
        </message>
        <message>
            <source>Could not send the label to {target}: {exc.strerror}</source>
            <translation>Das Etikett konnte nicht an {target} gesendet werden: {exc.strerror}</translation>
        </message>
        <message>
            <source>Could not save the label: {exc.strerror}</source>
            <translation>Das Etikett konnte nicht gespeichert werden: {exc.strerror}</translation>
        </message>
        <message>
            <source>Label printed again — {how} {where}</source>
            <translation>Etikett erneut gedruckt — {how} {where}</translation>
        </message>
    </context>
    <context>
        <name>OrderQuestions</name>
        <message>
            <source>Ship this order?</source>
            <translation>Diesen Auftrag versenden?</translation>
        </message>
        <message>
            <source>Ship {number} to {who} in box {box}?
The label is bought and the stock leaves: this cannot be undone. (F5 again, or scanning {number} or CMD-SHIP, says yes.)</source>
            <translation>{number} an {who} in Karton {box} versenden?
Das Etikett wird gekauft und der Bestand geht ab: Das lässt sich nicht rückgängig machen. (Erneut F5, oder {number} bzw. CMD-SHIP scannen, bestätigt.)</translation>
        </message>
        <message>
            <source>kept {number}</source>
            <translation>{number} belassen</translation>
        </message>
        <message>
            <source>{number} not shipped: F5 ships it</source>
            <translation>{number} nicht versendet: F5 versendet ihn</translation>
        </message>
        <message>
            <source>Cancel this order?</source>
            <translation>Diesen Auftrag stornieren?</translation>
        </message>
        <message>
            <source>Cancel {number} of {who}?
Its reserved stock is released: this cannot be undone. (Scanning CMD-CANCEL again says yes.)</source>
            <translation>{number} von {who} stornieren?
Der reservierte Bestand wird freigegeben: Das lässt sich nicht rückgängig machen. (Erneut CMD-CANCEL scannen bestätigt.)</translation>
        </message>
        <message>
            <source>{number} not cancelled</source>
            <translation>{number} nicht storniert</translation>
        </message>
    </context>
    <context>
        <name>OrderStatus</name>
        <message>
            <source>pending</source>
            <translation>offen</translation>
        </message>
        <message>
            <source>picked</source>
            <translation>kommissioniert</translation>
        </message>
        <message>
            <source>packed</source>
            <translation>gepackt</translation>
        </message>
        <message>
            <source>shipped</source>
            <translation>versendet</translation>
        </message>
        <message>
            <source>delivered</source>
            <translation>zugestellt</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>all</source>
            <translation>alle</translation>
        </message>
        <message>
            <source>Pending</source>
            <translation>Offen</translation>
        </message>
        <message>
            <source>Picked</source>
            <translation>Kommissioniert</translation>
        </message>
        <message>
            <source>Packed</source>
            <translation>Gepackt</translation>
        </message>
        <message>
            <source>Shipped</source>
            <translation>Versendet</translation>
        </message>
        <message>
            <source>Delivered</source>
            <translation>Zugestellt</translation>
        </message>
        <message>
            <source>Cancelled</source>
            <translation>Storniert</translation>
        </message>
        <message>
            <source>All</source>
            <translation>Alle</translation>
        </message>
    </context>
    <context>
        <name>ProductPanel</name>
        <message>
            <source>No picture</source>
            <translation>Kein Bild</translation>
        </message>
        <message>
            <source>Scan an item: its name and picture show here</source>
            <translation>Scannen Sie einen Artikel: Name und Bild erscheinen hier</translation>
        </message>
        <message>
            <source>SKU {sku}</source>
            <translation>SKU {sku}</translation>
        </message>
    </context>
    <context>
        <name>PurchaseReceiving</name>
        <message>
            <source>draft</source>
            <translation>Entwurf</translation>
        </message>
        <message>
            <source>sent</source>
            <translation>versendet</translation>
        </message>
        <message>
            <source>partially received</source>
            <translation>teilweise eingelagert</translation>
        </message>
        <message>
            <source>received</source>
            <translation>eingelagert</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>storniert</translation>
        </message>
        <message>
            <source>✗ {n} scans not received</source>
            <translation>✗ {n} Scans nicht eingelagert</translation>
        </message>
        <message>
            <source>{number}: {n} units scanned, not received. F5 receives them, Esc drops them</source>
            <translation>{number}: {n} Einheiten gescannt, nicht eingelagert. F5 lagert sie ein, Esc verwirft sie</translation>
        </message>
        <message>
            <source>opened {number}</source>
            <translation>{number} geöffnet</translation>
        </message>
        <message>
            <source>{number}: scan each item received, then F5</source>
            <translation>{number}: Jeden gelieferten Artikel scannen, dann F5</translation>
        </message>
        <message>
            <source>{number} is a draft, not sent to the supplier: nothing to receive yet</source>
            <translation>{number} ist ein Entwurf, nicht an den Lieferanten gesendet: Noch nichts einzulagern</translation>
        </message>
        <message>
            <source>{number} is cancelled: nothing to receive</source>
            <translation>{number} ist storniert: Nichts einzulagern</translation>
        </message>
        <message>
            <source>{number} is received in full: nothing left to receive</source>
            <translation>{number} ist vollständig eingelagert: Nichts mehr einzulagern</translation>
        </message>
        <message>
            <source>✗ purchase orders need Inventory</source>
            <translation>✗ Bestellungen brauchen das Lager-Modul</translation>
        </message>
        <message>
            <source>{code} is a purchase order: receive it signed in as a user with Inventory</source>
            <translation>{code} ist eine Bestellung: Melden Sie sich zum Einlagern als Benutzer mit Lager-Modul an</translation>
        </message>
        <message>
            <source>No purchase order {code}. Check the number and scan it again.</source>
            <translation>Keine Bestellung {code}. Prüfen Sie die Nummer und scannen Sie sie erneut.</translation>
        </message>
        <message>
            <source>ordered {ordered} · received {received} · open {left}</source>
            <translation>bestellt {ordered} · eingelagert {received} · offen {left}</translation>
        </message>
        <message>
            <source>✗ {number} is {status}</source>
            <translation>✗ {number} ist {status}</translation>
        </message>
        <message>
            <source>{number} is {status}: nothing can be received on it. Esc closes it</source>
            <translation>{number} ist {status}: Darauf kann nichts eingelagert werden. Esc schließt sie</translation>
        </message>
        <message>
            <source>Unknown barcode {code}</source>
            <translation>Unbekannter Barcode {code}</translation>
        </message>
        <message>
            <source>✗ not on {number}</source>
            <translation>✗ nicht auf {number}</translation>
        </message>
        <message>
            <source>{what} is not on {number}: put it aside and scan the next item</source>
            <translation>{what} steht nicht auf {number}: Legen Sie es beiseite und scannen Sie den nächsten Artikel</translation>
        </message>
        <message>
            <source>receiving {qty}</source>
            <translation>{qty} werden eingelagert</translation>
        </message>
        <message>
            <source>Scan the lot code of these {qty} × {name}</source>
            <translation>Scannen Sie die Chargennummer dieser {qty} × {name}</translation>
        </message>
        <message>
            <source>Scan the serial number of {name} 1 of {qty}</source>
            <translation>Scannen Sie die Seriennummer von {name}, 1 von {qty}</translation>
        </message>
        <message>
            <source>lot of {sku}</source>
            <translation>Charge von {sku}</translation>
        </message>
        <message>
            <source>Lot {lot}: type its expiry date (2027-03-31) and Enter, or - for none</source>
            <translation>Charge {lot}: Verfallsdatum eingeben (2027-03-31) und Enter, oder - für keines</translation>
        </message>
        <message>
            <source>✗ not a date</source>
            <translation>✗ kein Datum</translation>
        </message>
        <message>
            <source>{code} is not a date: type the expiry as 2027-03-31, or - for none</source>
            <translation>{code} ist kein Datum: Verfallsdatum als 2027-03-31 eingeben, oder - für keines</translation>
        </message>
        <message>
            <source>✗ serial scanned already</source>
            <translation>✗ Seriennummer bereits gescannt</translation>
        </message>
        <message>
            <source>Serial {code} is scanned already: scan the next unit's serial</source>
            <translation>Seriennummer {code} ist bereits gescannt: Scannen Sie die Seriennummer der nächsten Einheit</translation>
        </message>
        <message>
            <source>serial of {sku}</source>
            <translation>Seriennummer von {sku}</translation>
        </message>
        <message>
            <source>Scan the serial number of {name} {n} of {qty}</source>
            <translation>Scannen Sie die Seriennummer von {name}, {n} von {qty}</translation>
        </message>
        <message>
            <source>✓ {name}: {n} of {ordered} — F5 receives what is scanned</source>
            <translation>✓ {name}: {n} von {ordered} — F5 lagert das Gescannte ein</translation>
        </message>
        <message>
            <source>{name}: {n} of {ordered} is more than ordered — Ctrl+Z takes it back</source>
            <translation>{name}: {n} von {ordered} ist mehr als bestellt — Strg+Z nimmt es zurück</translation>
        </message>
        <message>
            <source>Nothing to undo: no scan on {number} yet</source>
            <translation>Nichts rückgängig zu machen: Noch kein Scan auf {number}</translation>
        </message>
        <message>
            <source>took back {qty} × {sku}</source>
            <translation>{qty} × {sku} zurückgenommen</translation>
        </message>
        <message>
            <source>Undone: {qty} × {sku} taken back</source>
            <translation>Rückgängig: {qty} × {sku} zurückgenommen</translation>
        </message>
        <message>
            <source>finish the item scanned: its lot or serial first</source>
            <translation>Erst den gescannten Artikel abschließen: seine Charge oder Seriennummer</translation>
        </message>
        <message>
            <source>scan the items received first</source>
            <translation>Erst die gelieferten Artikel scannen</translation>
        </message>
        <message>
            <source>Nothing to receive on {number} yet: {what}</source>
            <translation>Noch nichts auf {number} einzulagern: {what}</translation>
        </message>
        <message>
            <source>Receive these items?</source>
            <translation>Diese Artikel einlagern?</translation>
        </message>
        <message>
            <source>Receive on {number}: {what}?
This cannot be undone. (F5 again, or scanning {number}, says yes.)</source>
            <translation>Auf {number} einlagern: {what}?
Das lässt sich nicht rückgängig machen. (Erneut F5, oder {number} scannen, bestätigt.)</translation>
        </message>
        <message>
            <source>kept the scans of {number}</source>
            <translation>Scans von {number} behalten</translation>
        </message>
        <message>
            <source>Not received: the scans stay, F5 receives them</source>
            <translation>Nicht eingelagert: Die Scans bleiben, F5 lagert sie ein</translation>
        </message>
        <message>
            <source>✓ received {units} units</source>
            <translation>✓ {units} Einheiten eingelagert</translation>
        </message>
        <message>
            <source>✓ Received {units} units: {number} is received in full</source>
            <translation>✓ {units} Einheiten eingelagert: {number} ist vollständig eingelagert</translation>
        </message>
        <message>
            <source>✓ Received {units} units on {number}: {left} still open (partially received)</source>
            <translation>✓ {units} Einheiten auf {number} eingelagert: {left} noch offen (teilweise eingelagert)</translation>
        </message>
        <message>
            <source>{sku} ordered {ordered}, received {received} before, {asked} scanned now</source>
            <translation>{sku} bestellt {ordered}, zuvor eingelagert {received}, jetzt gescannt {asked}</translation>
        </message>
        <message>
            <source>More than ordered on {number}: {over}. Take the extra back (Ctrl+Z), then F5</source>
            <translation>Mehr als bestellt auf {number}: {over}. Nehmen Sie das Zuviel zurück (Strg+Z), dann F5</translation>
        </message>
    </context>
    <context>
        <name>TransferSlips</name>
        <message>
            <source>✗ no open transfer</source>
            <translation>✗ keine offene Umlagerung</translation>
        </message>
        <message>
            <source>No transfer {code} to ship or receive (it may be done or cancelled)</source>
            <translation>Keine Umlagerung {code} zum Versenden oder Annehmen (sie ist vielleicht erledigt oder storniert)</translation>
        </message>
        <message>
            <source>opened transfer {code}</source>
            <translation>Umlagerung {code} geöffnet</translation>
        </message>
        <message>
            <source>Transfer {code}: scan the slip again to ship it</source>
            <translation>Umlagerung {code}: den Beleg noch einmal scannen, um sie zu versenden</translation>
        </message>
        <message>
            <source>Transfer {code}: scan the slip again to receive it</source>
            <translation>Umlagerung {code}: den Beleg noch einmal scannen, um sie anzunehmen</translation>
        </message>
        <message>
            <source>Transfer {code} · {route} · {status}</source>
            <translation>Umlagerung {code} · {route} · {status}</translation>
        </message>
        <message>
            <source>Ship {code}: {what}?
This cannot be undone. (Scanning the slip again says yes.)</source>
            <translation>{code} versenden: {what}?
Das lässt sich nicht rückgängig machen. (Den Beleg noch einmal scannen heißt Ja.)</translation>
        </message>
        <message>
            <source>Receive {code}: {what}?
This cannot be undone. (Scanning the slip again says yes.)</source>
            <translation>{code} annehmen: {what}?
Das lässt sich nicht rückgängig machen. (Den Beleg noch einmal scannen heißt Ja.)</translation>
        </message>
        <message>
            <source>Ship this transfer?</source>
            <translation>Diese Umlagerung versenden?</translation>
        </message>
        <message>
            <source>Receive this transfer?</source>
            <translation>Diese Umlagerung annehmen?</translation>
        </message>
        <message>
            <source>kept {code}</source>
            <translation>{code} belassen</translation>
        </message>
        <message>
            <source>{code} not moved</source>
            <translation>{code} nicht bewegt</translation>
        </message>
        <message>
            <source>✓ transfer shipped</source>
            <translation>✓ Umlagerung versendet</translation>
        </message>
        <message>
            <source>✓ transfer received</source>
            <translation>✓ Umlagerung angenommen</translation>
        </message>
        <message>
            <source>✓ Transfer {code} shipped</source>
            <translation>✓ Umlagerung {code} versendet</translation>
        </message>
        <message>
            <source>✓ Transfer {code} received</source>
            <translation>✓ Umlagerung {code} angenommen</translation>
        </message>
        <message>
            <source>✗ transfers need Inventory</source>
            <translation>✗ Umlagerungen brauchen das Modul Inventory</translation>
        </message>
        <message>
            <source>{code} is a transfer: ship or receive it in the Stock count workspace</source>
            <translation>{code} ist eine Umlagerung: Versenden oder annehmen im Arbeitsbereich Inventur</translation>
        </message>
    </context>
    <context>
        <name>WarehouseWorkspace</name>
        <message>
            <source>Scan an order number or a pick list to start</source>
            <translation>Scannen Sie eine Auftragsnummer oder eine Pickliste, um zu beginnen</translation>
        </message>
        <message>
            <source>{total} orders</source>
            <translation>{total} Aufträge</translation>
        </message>
        <message>
            <source>● Online · synced</source>
            <translation>● Online · synchronisiert</translation>
        </message>
        <message>
            <source>● Offline · saved on this station</source>
            <translation>● Offline · auf dieser Station gespeichert</translation>
        </message>
        <message>
            <source> (typed)</source>
            <translation> (eingegeben)</translation>
        </message>
        <message>
            <source>A quantity is 1 or more: type it, then *, then scan the item</source>
            <translation>Eine Menge ist 1 oder mehr: Geben Sie sie ein, dann *, dann scannen Sie den Artikel</translation>
        </message>
        <message>
            <source>Quantity {n}: scan the item</source>
            <translation>Menge {n}: Scannen Sie den Artikel</translation>
        </message>
        <message>
            <source>Nothing to undo: no scan on this order yet</source>
            <translation>Nichts rückgängig zu machen: Noch kein Scan in diesem Auftrag</translation>
        </message>
        <message>
            <source>took back {qty} × {line.name} ({line.picked_quantity}/{line.quantity})</source>
            <translation>{qty} × {line.name} zurückgenommen ({line.picked_quantity}/{line.quantity})</translation>
        </message>
        <message>
            <source>Undone: {qty} × {line.name} taken back — {line.picked_quantity} of {line.quantity}</source>
            <translation>Rückgängig: {qty} × {line.name} zurückgenommen — {line.picked_quantity} von {line.quantity}</translation>
        </message>
        <message>
            <source>That scan</source>
            <translation>Dieser Scan</translation>
        </message>
        <message>
            <source>Scan the barcode again.</source>
            <translation>Scannen Sie den Barcode erneut.</translation>
        </message>
        <message>
            <source>One too many: all {line.quantity} × {line.name} already scanned</source>
            <translation>Einer zu viel: Alle {line.quantity} × {line.name} sind bereits gescannt</translation>
        </message>
        <message>
            <source>Too many: {next_quantity} × {line.name}, only {left} still to scan</source>
            <translation>Zu viele: {next_quantity} × {line.name}, nur noch {left} zu scannen</translation>
        </message>
        <message>
            <source>Order {o.order_number} is {o.status}; items cannot be scanned now</source>
            <translation>Auftrag {o.order_number} ist {o.status}; Artikel können jetzt nicht gescannt werden</translation>
        </message>
        <message>
            <source>{current} is part-picked ({part[0]} of {part[1]} scanned). Scan {order.order_number} again to leave it, or keep scanning {current}.</source>
            <translation>{current} ist teilweise kommissioniert ({part[0]} von {part[1]} gescannt). Scannen Sie {order.order_number} erneut, um ihn zu verlassen, oder scannen Sie weiter für {current}.</translation>
        </message>
        <message>
            <source>left {current}</source>
            <translation>{current} verlassen</translation>
        </message>
        <message>
            <source>kept {current}</source>
            <translation>bei {current} geblieben</translation>
        </message>
        <message>
            <source>opened {order.order_number}</source>
            <translation>{order.order_number} geöffnet</translation>
        </message>
        <message>
            <source>Scan each item</source>
            <translation>Jeden Artikel scannen</translation>
        </message>
        <message>
            <source>All items verified — pack it: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>Alle Positionen geprüft — packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>Packed — press F5 or scan CMD-SHIP to ship</source>
            <translation>Gepackt — F5 drücken oder CMD-SHIP scannen, um zu versenden</translation>
        </message>
        <message>
            <source>{prefix}Order {order.order_number}: {value}</source>
            <translation>{prefix}Auftrag {order.order_number}: {value}</translation>
        </message>
        <message>
            <source>No order or item {value}. Check the code and scan it again.</source>
            <translation>Kein Auftrag und kein Artikel {value}. Prüfen Sie den Code und scannen Sie ihn erneut.</translation>
        </message>
        <message>
            <source>{picked} of {quantity} scanned</source>
            <translation>{picked} von {quantity} gescannt</translation>
        </message>
        <message>
            <source>✓ All items verified — pack {res.order_number}: F1 S · F2 M · F3 L · F4 XL</source>
            <translation>✓ Alle Positionen geprüft — {res.order_number} packen: F1 S · F2 M · F3 L · F4 XL</translation>
        </message>
        <message>
            <source>✓ {line.name}  {line.picked_quantity} of {line.quantity}</source>
            <translation>✓ {line.name}  {line.picked_quantity} von {line.quantity}</translation>
        </message>
        <message>
            <source>Unknown barcode {value}. Scan it again or type it below.</source>
            <translation>Unbekannter Barcode {value}. Scannen Sie ihn erneut oder geben Sie ihn unten ein.</translation>
        </message>
        <message>
            <source>Open an order before you pack: scan its number or pick list</source>
            <translation>Öffnen Sie einen Auftrag, bevor Sie packen: Scannen Sie seine Nummer oder Pickliste</translation>
        </message>
        <message>
            <source>Open an order before you ship: scan its number or pick list</source>
            <translation>Öffnen Sie einen Auftrag, bevor Sie versenden: Scannen Sie seine Nummer oder Pickliste</translation>
        </message>
        <message>
            <source>Open an order before you cancel: scan its number or pick list</source>
            <translation>Öffnen Sie einen Auftrag, bevor Sie ihn stornieren: Scannen Sie seine Nummer oder Pickliste</translation>
        </message>
        <message>
            <source>✗ {done}/{total} scanned</source>
            <translation>✗ {done}/{total} gescannt</translation>
        </message>
        <message>
            <source>Scan every item first: {done} of {total} verified</source>
            <translation>Scannen Sie zuerst jede Position: {done} von {total} geprüft</translation>
        </message>
        <message>
            <source>✗ not packed yet</source>
            <translation>✗ noch nicht gepackt</translation>
        </message>
        <message>
            <source>Pack it first: F1-F4 (or scan BOX-S/M/L/XL) for the box, then F5 ships</source>
            <translation>Zuerst packen: F1–F4 (oder BOX-S/M/L/XL scannen) für den Karton, dann versendet F5</translation>
        </message>
        <message>
            <source>packed {res.order_number}</source>
            <translation>{res.order_number} gepackt</translation>
        </message>
        <message>
            <source>Packed in box {box} — press F5 or scan CMD-SHIP to ship</source>
            <translation>In Karton {box} gepackt — F5 drücken oder CMD-SHIP scannen, um zu versenden</translation>
        </message>
        <message>
            <source>shipped {res.order_number} {tracking}</source>
            <translation>{res.order_number} versendet {tracking}</translation>
        </message>
        <message>
            <source>Shipped {res.order_number} — tracking {tracking}</source>
            <translation>{res.order_number} versendet — Sendungsnummer {tracking}</translation>
        </message>
        <message>
            <source>Order {res.order_number} cancelled</source>
            <translation>Auftrag {res.order_number} storniert</translation>
        </message>
        <message>
            <source>No more orders to fulfil</source>
            <translation>Keine weiteren Aufträge zu bearbeiten</translation>
        </message>
        <message>
            <source>No order open</source>
            <translation>Kein Auftrag geöffnet</translation>
        </message>
    </context>
    <context>
        <name>Workspaces</name>
        <message>
            <source>Warehouse scanning</source>
            <translation>Lager-Scannen</translation>
        </message>
    </context>
    <context>
        <name>confirm</name>
        <message>
            <source>confirmed by pressing it again</source>
            <translation>durch erneutes Drücken bestätigt</translation>
        </message>
        <message>
            <source>confirmed by scanning again</source>
            <translation>durch erneutes Scannen bestätigt</translation>
        </message>
        <message>
            <source>✗ ignored: answer the question first</source>
            <translation>✗ ignoriert: Beantworten Sie zuerst die Frage</translation>
        </message>
        <message>
            <source>Leave a part-picked order?</source>
            <translation>Teilweise kommissionierten Auftrag verlassen?</translation>
        </message>
        <message>
            <source>{current} is part-picked: {part[0]} of {part[1]} items scanned.
Leave it and open {target}? The scans stay on {current}. (Scanning {target} again leaves it.)</source>
            <translation>{current} ist teilweise kommissioniert: {part[0]} von {part[1]} Positionen gescannt.
{current} verlassen und {target} öffnen? Die Scans bleiben bei {current}. (Erneutes Scannen von {target} verlässt ihn.)</translation>
        </message>
    </context>
    <context>
        <name>layout</name>
        <message>
            <source>Oldest first</source>
            <translation>Älteste zuerst</translation>
        </message>
        <message>
            <source>Newest first</source>
            <translation>Neueste zuerst</translation>
        </message>
        <message>
            <source>Damaged barcode? Type the code here and press Enter</source>
            <translation>Barcode beschädigt? Code hier eingeben und Enter drücken</translation>
        </message>
        <message>
            <source>No order open</source>
            <translation>Kein Auftrag geöffnet</translation>
        </message>
        <message>
            <source>Pack {b}</source>
            <translation>Packen {b}</translation>
        </message>
        <message>
            <source>Ship</source>
            <translation>Versenden</translation>
        </message>
        <message>
            <source>Print again</source>
            <translation>Erneut drucken</translation>
        </message>
        <message>
            <source>Next order</source>
            <translation>Nächster Auftrag</translation>
        </message>
        <message>
            <source>Cancel order</source>
            <translation>Auftrag stornieren</translation>
        </message>
        <message>
            <source>Last label</source>
            <translation>Letztes Etikett</translation>
        </message>
        <message>
            <source>Scans this shift</source>
            <translation>Scans dieser Schicht</translation>
        </message>
    </context>
    <context>
        <name>queue</name>
        <message>
            <source>Order</source>
            <translation>Auftrag</translation>
        </message>
        <message>
            <source>Pick list</source>
            <translation>Pickliste</translation>
        </message>
        <message>
            <source>Customer</source>
            <translation>Kunde</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Items</source>
            <translation>Positionen</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>Erstellt</translation>
        </message>
        <message>
            <source>Item</source>
            <translation>Artikel</translation>
        </message>
        <message>
            <source>Barcode</source>
            <translation>Barcode</translation>
        </message>
        <message>
            <source>SKU</source>
            <translation>SKU</translation>
        </message>
        <message>
            <source>Scanned</source>
            <translation>Gescannt</translation>
        </message>
    </context>
</TS>
