"""Declarations of the Support & Helpdesk routes (platform paths, mounted as written)."""

from services.core.commands import MANAGERS, STAFF, command, query
from services.core.pagination import ListQuery
from services.support import schemas as sc
from services.support import service

M = "support"
PUB = "/api/tenants/{tenant}/support/public"
AGT = "/api/tenants/{tenant}/support"
ANYONE = frozenset({"owner", "admin", "operator", "warehouse-device"})

# --- public (guest) ------------------------------------------------------------------

# Declared as a read: the bot challenge is checked before the handler opens its own
# unit of work, so no write lock is held while the provider answers.
query(name="support.public.tickets.create", module=M, method="POST", path=PUB + "/tickets",
      handler=service.public_create_ticket, body=sc.PublicTicketCreate, auth="public", roles=ANYONE,
      status_code=201, limit="public_ticket", summary="open a ticket (bot challenge required)")  # fmt: skip
query(name="support.public.tickets.lookup", module=M, method="POST", path=PUB + "/tickets/lookup",
      handler=service.public_lookup, body=sc.LookupRequest, auth="public", roles=ANYONE,
      summary="look a ticket up by number and access token")  # fmt: skip
query(name="support.public.messages.list", module=M, method="GET", path=PUB + "/tickets/{number}/messages",
      handler=service.public_messages, auth="public", roles=ANYONE, headers=(service.ACCESS_HEADER,),
      summary="messages of a ticket (X-Access-Token header)")  # fmt: skip
command(name="support.public.messages.reply", module=M, method="POST", path=PUB + "/tickets/{number}/messages",
        handler=service.public_reply, body=sc.PublicReply, auth="public", roles=ANYONE, status_code=201,
        summary="reply to a ticket as its requester")  # fmt: skip
command(name="support.public.attachments.upload", module=M, method="POST", path=PUB + "/attachments",
        handler=service.public_upload, query=sc.PublicUploadQuery, upload=True, auth="public", roles=ANYONE,
        headers=(service.ACCESS_HEADER,), status_code=201, limit="upload",
        summary="attach a file to a ticket as its requester")  # fmt: skip
query(name="support.public.categories.list", module=M, method="GET", path=PUB + "/categories",
      handler=service.public_categories, auth="public", roles=ANYONE, summary="list categories")  # fmt: skip

# --- signed-in person, any tenant -----------------------------------------------------

query(name="support.my_tickets", module=M, method="GET", path="/api/support/my-tickets",
      handler=service.my_tickets, query=ListQuery, auth="user", roles=ANYONE,
      summary="tickets the signed-in person opened")  # fmt: skip

# --- agents -----------------------------------------------------------------------------

query(name="support.tickets.list", module=M, method="GET", path=AGT + "/tickets", handler=service.list_tickets,
      query=sc.TicketQuery, roles=STAFF, summary="list tickets")  # fmt: skip
command(name="support.tickets.create", module=M, method="POST", path=AGT + "/tickets",
        handler=service.create_ticket, body=sc.AgentTicketCreate, roles=STAFF, status_code=201,
        summary="open a ticket for a customer")  # fmt: skip
query(name="support.queues", module=M, method="GET", path=AGT + "/queues", handler=service.queue_counts,
      roles=STAFF, summary="queue counts")  # fmt: skip
query(name="support.agents.list", module=M, method="GET", path=AGT + "/agents", handler=service.list_agents,
      roles=STAFF, summary="list agents")  # fmt: skip
query(name="support.tickets.get", module=M, method="GET", path=AGT + "/tickets/{ticket_id}",
      handler=service.get_ticket, roles=STAFF, summary="read tickets")  # fmt: skip
command(name="support.tickets.update", module=M, method="PATCH", path=AGT + "/tickets/{ticket_id}",
        handler=service.update_ticket, body=sc.TicketUpdate, roles=STAFF, summary="change tickets")  # fmt: skip
query(name="support.messages.list", module=M, method="GET", path=AGT + "/tickets/{ticket_id}/messages",
      handler=service.list_messages, roles=STAFF, summary="read conversations")  # fmt: skip
command(name="support.messages.create", module=M, method="POST", path=AGT + "/tickets/{ticket_id}/messages",
        handler=service.add_message, body=sc.AgentMessageCreate, roles=STAFF, status_code=201,
        summary="reply or add internal notes")  # fmt: skip

query(name="support.categories.list", module=M, method="GET", path=AGT + "/categories",
      handler=service.list_categories, roles=STAFF, summary="list categories")  # fmt: skip
command(name="support.categories.create", module=M, method="POST", path=AGT + "/categories",
        handler=service.create_category, body=sc.CategoryCreate, roles=STAFF, status_code=201,
        summary="create categories")  # fmt: skip
command(name="support.categories.update", module=M, method="PATCH", path=AGT + "/categories/{category_id}",
        handler=service.update_category, body=sc.CategoryUpdate, roles=STAFF, summary="change categories")  # fmt: skip
command(name="support.categories.delete", module=M, method="DELETE", path=AGT + "/categories/{category_id}",
        handler=service.delete_category, query=sc.CategoryDeleteQuery, roles=STAFF,
        summary="delete categories")  # fmt: skip

command(name="support.attachments.upload", module=M, method="POST", path=AGT + "/attachments",
        handler=service.upload_attachment, query=sc.AttachmentQuery, upload=True, roles=STAFF, status_code=201,
        limit="upload", summary="upload attachments")  # fmt: skip
query(name="support.attachments.get", module=M, method="GET", path=AGT + "/attachments/{attachment_id}",
      handler=service.download_attachment, roles=STAFF, summary="download attachments")  # fmt: skip
command(name="support.attachments.delete", module=M, method="DELETE", path=AGT + "/attachments/{attachment_id}",
        handler=service.delete_attachment, roles=STAFF, summary="delete attachments")  # fmt: skip

query(name="support.helpdesk.get", module=M, method="GET", path=AGT + "/helpdesk", handler=service.get_helpdesk,
      roles=STAFF, summary="read the helpdesk configuration")  # fmt: skip
command(name="support.helpdesk.put", module=M, method="PUT", path=AGT + "/helpdesk", handler=service.put_helpdesk,
        body=sc.HelpdeskConfig, roles=MANAGERS, summary="change the helpdesk configuration")  # fmt: skip

query(name="support.email_domain.get", module=M, method="GET", path=AGT + "/email-domain",
      handler=service.get_email_domain, roles=STAFF, summary="read the e-mail domain status")  # fmt: skip
command(name="support.email_domain.register", module=M, method="POST", path=AGT + "/email-domain",
        handler=service.register_email_domain, body=sc.EmailDomainRegister, roles=MANAGERS, status_code=201,
        summary="register an e-mail domain")  # fmt: skip
# A read declaration: the handler looks the TXT record up outside any write transaction,
# then records the check in its own unit of work (kept even when the record is missing).
query(name="support.email_domain.verify", module=M, method="PUT", path=AGT + "/email-domain",
      handler=service.verify_email_domain, roles=MANAGERS, summary="verify the e-mail domain")  # fmt: skip
command(name="support.email_domain.delete", module=M, method="DELETE", path=AGT + "/email-domain",
        handler=service.delete_email_domain, roles=MANAGERS, summary="remove the e-mail domain")  # fmt: skip

query(name="support.triage", module=M, method="POST", path=AGT + "/ai/triage", handler=service.triage_ticket,
      body=sc.TriageRequest, roles=STAFF, summary="suggest category and priority")  # fmt: skip
query(name="support.triage.reply", module=M, method="PUT", path=AGT + "/ai/triage", handler=service.suggest_reply,
      body=sc.TriageRequest, roles=STAFF, summary="suggest a reply")  # fmt: skip
