"""Declarations of the Upgrade (trade-in) operations, its event types and its customer authenticator.

Customer routes are the spec's Upgrade table (``auth="customer"``); staff work
on the same resources under ``/admin/...`` and on the staff actions of the
table (offers, ship, receive, inspect), since one path has one audience.
"""

from services.core import auth
from services.core.commands import MANAGERS, STAFF, command, query
from services.core.events import register_event_type
from services.core.pagination import ListQuery
from services.upgrade import customers, service
from services.upgrade import schemas as sc

M = "upgrade"
auth.CUSTOMER_AUTHENTICATORS[M] = customers.authenticate

for _name, _desc in [
    ("tradein.offered", "an offer (initial or replacing) was sent to the customer"),
    ("tradein.shipped", "a shipping kit (or a return) label was made and sent"),
    ("tradein.received", "the device arrived at the facility"),
    ("tradein.inspected", "inspection complete: graded condition and value recorded"),
    ("tradein.offer_revised", "graded value below the accepted offer: a revised offer waits for the customer"),
    ("tradein.completed", "credit issued, trade-in finished"),
    ("tradein.declined", "the customer declined an offer or staff rejected the trade-in"),
]:
    register_event_type(_name, M, _desc)

# --- customer accounts ---------------------------------------------------------

command(name="upgrade.auth.register", module=M, method="POST", path="/auth/register", handler=customers.register,
        body=sc.RegisterRequest, auth="public", limit="auth", status_code=201, cookie=customers.COOKIE,
        summary="register a trade-in customer account")  # fmt: skip
query(name="upgrade.auth.login", module=M, method="POST", path="/auth/login", handler=customers.login,
      body=sc.CustomerLogin, auth="public", limit="auth", cookie=customers.COOKIE,
      summary="customer sign-in; sets the upgrade_token cookie and returns the token")  # fmt: skip
command(name="upgrade.auth.logout", module=M, method="POST", path="/auth/logout", handler=customers.logout,
        auth="customer", clears_cookie=customers.COOKIE, summary="customer sign-out (ends every session)")  # fmt: skip
query(name="upgrade.auth.me", module=M, method="GET", path="/auth/me", handler=customers.me, auth="customer",
      summary="the signed-in customer")  # fmt: skip
query(name="upgrade.profile.get", module=M, method="GET", path="/profile", handler=customers.get_profile,
      auth="customer", summary="read the customer profile")  # fmt: skip
command(name="upgrade.profile.update", module=M, method="PUT", path="/profile", handler=customers.update_profile,
        body=sc.ProfileUpdate, auth="customer", summary="update the customer profile")  # fmt: skip

# --- submissions, offers and photos as the customer sees them ------------------------

query(name="upgrade.submissions.list", module=M, method="GET", path="/submissions", handler=service.list_submissions,
      query=sc.SubmissionQuery, auth="customer", summary="list own submissions")  # fmt: skip
command(name="upgrade.submissions.create", module=M, method="POST", path="/submissions",
        handler=service.create_submission, body=sc.SubmissionCreate, auth="customer", status_code=201,
        summary="create a submission (draft)")  # fmt: skip
query(name="upgrade.submissions.get", module=M, method="GET", path="/submissions/{id}",
      handler=service.get_submission, auth="customer", summary="submission details")  # fmt: skip
command(name="upgrade.submissions.update", module=M, method="PUT", path="/submissions/{id}",
        handler=service.update_submission, body=sc.SubmissionUpdate, auth="customer",
        summary="update a draft submission")  # fmt: skip
command(name="upgrade.submissions.submit", module=M, method="POST", path="/submissions/{id}",
        handler=service.submit_submission, body=sc.SubmitRequest, auth="customer",
        summary="submit for review")  # fmt: skip
command(name="upgrade.offers.respond", module=M, method="POST", path="/offers/{id}", handler=service.respond_offer,
        body=sc.OfferRespond, auth="customer", summary="accept or decline an offer")  # fmt: skip
command(name="upgrade.photos.upload", module=M, method="POST", path="/photos", handler=service.upload_photo,
        upload=True, auth="customer", status_code=201, limit="upload", summary="upload a photo")  # fmt: skip
query(name="upgrade.photos.get", module=M, method="GET", path="/photos/{id}", handler=service.get_photo,
      query=sc.PhotoQuery, auth="customer", summary="get a photo (?thumbnail=true for the small one)")  # fmt: skip

# --- staff: the actions of the spec's table ------------------------------------------

command(name="upgrade.offers.create", module=M, method="POST", path="/offers", handler=service.create_offer,
        body=sc.OfferCreate, roles=STAFF, status_code=201, summary="send offers")  # fmt: skip
command(name="upgrade.submissions.ship", module=M, method="POST", path="/submissions/{id}/ship", handler=service.ship,
        body=sc.ShipRequest, roles=STAFF, summary="ship kits and returns")  # fmt: skip
command(name="upgrade.submissions.receive", module=M, method="POST", path="/submissions/{id}/receive",
        handler=service.receive, body=sc.ReceiveRequest, roles=STAFF, summary="receive trade-ins")  # fmt: skip
command(name="upgrade.submissions.inspect", module=M, method="POST", path="/submissions/{id}/inspect",
        handler=service.inspect, body=sc.InspectRequest, roles=STAFF, summary="inspect trade-ins")  # fmt: skip
command(name="upgrade.submissions.reject", module=M, method="POST", path="/submissions/{id}/reject",
        handler=service.reject, body=sc.RejectRequest, roles=STAFF, summary="reject trade-ins")  # fmt: skip

# --- staff: admin views -----------------------------------------------------------------

query(name="upgrade.admin.submissions.list", module=M, method="GET", path="/admin/submissions",
      handler=service.list_submissions, query=sc.AdminSubmissionQuery, roles=STAFF,
      summary="list all submissions")  # fmt: skip
query(name="upgrade.admin.submissions.get", module=M, method="GET", path="/admin/submissions/{id}",
      handler=service.get_submission, roles=STAFF, summary="read any submission")  # fmt: skip
query(name="upgrade.admin.scan", module=M, method="GET", path="/admin/scan/{code}", handler=service.scan,
      roles=STAFF, summary="open a submission by its kit barcode")  # fmt: skip
command(name="upgrade.admin.offers.respond", module=M, method="POST", path="/admin/offers/{id}",
        handler=service.respond_offer, body=sc.OfferRespond, roles=STAFF,
        summary="record a customer's answer to an offer")  # fmt: skip
command(name="upgrade.admin.photos.upload", module=M, method="POST", path="/admin/photos",
        handler=service.upload_photo, upload=True, roles=STAFF, status_code=201, limit="upload",
        summary="attach inspection photos")  # fmt: skip
query(name="upgrade.admin.photos.get", module=M, method="GET", path="/admin/photos/{id}", handler=service.get_photo,
      query=sc.PhotoQuery, roles=STAFF, summary="read any photo")  # fmt: skip
query(name="upgrade.admin.thumbnails", module=M, method="GET", path="/admin/thumbnails", handler=service.thumbnails,
      query=sc.ThumbnailQuery, roles=STAFF, summary="thumbnails of several photos (base64 JPEG)")  # fmt: skip
query(name="upgrade.admin.shipments.label", module=M, method="GET", path="/admin/shipments/{id}/label",
      handler=service.shipment_label, query=sc.LabelQuery, roles=STAFF,
      summary="kit or return label (PDF, ?format=zpl)")  # fmt: skip
query(name="upgrade.admin.customers", module=M, method="GET", path="/admin/customers",
      handler=customers.list_customers, query=ListQuery, roles=STAFF, summary="list customers")  # fmt: skip
query(name="upgrade.admin.stats", module=M, method="GET", path="/admin/stats", handler=service.stats, roles=STAFF,
      summary="trade-in statistics")  # fmt: skip

# Valuations: everyone on staff reads them; owners and admins set them.
query(name="upgrade.valuations.list", module=M, method="GET", path="/admin/valuations",
      handler=service.list_valuations, query=ListQuery, roles=STAFF, summary="list valuations")  # fmt: skip
command(name="upgrade.valuations.create", module=M, method="POST", path="/admin/valuations",
        handler=service.create_valuation, body=sc.ValuationCreate, roles=MANAGERS, status_code=201,
        summary="create valuations")  # fmt: skip
query(name="upgrade.valuations.get", module=M, method="GET", path="/admin/valuations/{id}",
      handler=service.get_valuation, roles=STAFF, summary="read a valuation")  # fmt: skip
command(name="upgrade.valuations.update", module=M, method="PUT", path="/admin/valuations/{id}",
        handler=service.update_valuation, body=sc.ValuationUpdate, roles=MANAGERS,
        summary="change valuations")  # fmt: skip
command(name="upgrade.valuations.delete", module=M, method="DELETE", path="/admin/valuations/{id}",
        handler=service.delete_valuation, roles=MANAGERS, summary="delete valuations")  # fmt: skip
