"""schemathesis hooks for scripts/openapi-check: NDJSON bodies (POST /forms/{id}/validate/batch,
API.md §4.2) are sent as the generated text, as text/plain would be."""
import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
