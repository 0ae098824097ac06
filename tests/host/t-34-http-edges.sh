#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The HTTP edges of the status and metrics endpoint, on rdmad-fake: an
# unknown path 404, POST 405, DELETE 405 with an Allow header, HEAD
# /metrics 200, a bad query 400, the OpenMetrics content type when asked
# for, the Prometheus one otherwise.  The rdma guest's t-70 keeps the
# counters moved by real clients.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

http=127.0.0.1:$(free_port)
ini_text "$RDMAD_SRV_ADDR:7482" "http.listen = $http" >"$T/rdmad.ini"
rdmad_start

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code http://$http/nothing)" = 404 ] || fail "unknown path: want 404"
[ "$(code -X POST http://$http/metrics)" = 405 ] || fail "POST: want 405"
curl -s -D "$T/post.hdr" -o /dev/null -X DELETE "http://$http/status"
grep -qi '^Allow: GET, HEAD' "$T/post.hdr" || fail "405 without an Allow header: $(cat "$T/post.hdr")"
[ "$(code -I http://$http/metrics)" = 200 ] || fail "HEAD /metrics: want 200"
[ "$(code "http://$http/status?format=xml")" = 400 ] || fail "bad query: want 400"
ctype=$(curl -s -o /dev/null -w '%{content_type}' -H 'Accept: application/openmetrics-text; version=1.0.0' "http://$http/metrics")
[[ $ctype == application/openmetrics-text* ]] || fail "OpenMetrics content type: '$ctype'"
ctype=$(curl -s -o /dev/null -w '%{content_type}' "http://$http/metrics")
[[ $ctype == "text/plain; version=0.0.4"* ]] || fail "Prometheus content type: '$ctype'"
rdmad_alive
exit 0
