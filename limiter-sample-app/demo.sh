#!/usr/bin/env bash
# Walks the anti-crawler story against a running sample app, with curl only:
#   ./mvnw -pl limiter-sample-app -am spring-boot:run     (in another terminal)
#   limiter-sample-app/demo.sh                            (BASE=http://host:port to point elsewhere)
# Exits non-zero at the first step that does not behave as described.
set -u
BASE="${BASE:-http://localhost:8080}"
failures=0

step() { printf '\n== %s\n' "$*"; }
check() { # check <what> <expected> <actual>
  if [ "$2" = "$3" ]; then printf '   ok    %-52s %s\n' "$1" "$3"
  else printf '   FAIL  %-52s expected %s, got %s\n' "$1" "$2" "$3"; failures=$((failures + 1)); fi
}
login() { # login <user> -> prints the whole response body
  curl -s -X POST -H 'Content-Type: application/json' \
    -d "{\"username\":\"$1\",\"password\":\"password\"}" "$BASE/api/login"
}
token_of() { sed -n 's/.*"token":"\([^"]*\)".*/\1/p'; }
login_status() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d "{\"username\":\"$1\",\"password\":\"password\"}" "$BASE/api/login"; }
read_answer() { # read_answer <token> <question> -> HTTP status
  curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" "$BASE/questions/$2/answer"
}
alerts_for() { # alerts_for <user> -> how many alerts the admin sees for the user
  curl -s -H "Authorization: Bearer $ADMIN" "$BASE/admin/alerts" | grep -o "\"username\":\"$1\"" | wc -l | tr -d ' '
}

step "admin logs in and lifts any ban left on alice by an earlier run"
ADMIN=$(login admin | token_of)
check "admin token issued" yes "$([ -n "$ADMIN" ] && echo yes || echo no)"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$BASE/admin/bans/alice"
alerts_before=$(alerts_for alice)

step "alice logs in and reads 10 answers"
ALICE=$(login alice | token_of)
statuses=""
for i in $(seq 1 10); do statuses="$statuses$(read_answer "$ALICE" $((1 + i % 3))) "; done
echo "   statuses: $statuses"
check "reads 1-10 all answered" "$(printf '200 %.0s' $(seq 1 10))" "$statuses"
check "no alert yet" "$alerts_before" "$(alerts_for alice)"

step "read 11 raises exactly one alert"
check "read 11 answered" 200 "$(read_answer "$ALICE" 1)"
check "one new alert for alice" "$((alerts_before + 1))" "$(alerts_for alice)"

step "reads 12-20 succeed with no new alert"
statuses=""
for i in $(seq 12 20); do statuses="$statuses$(read_answer "$ALICE" $((1 + i % 3))) "; done
echo "   statuses: $statuses"
check "reads 12-20 all answered" "$(printf '200 %.0s' $(seq 12 20))" "$statuses"
check "still one new alert" "$((alerts_before + 1))" "$(alerts_for alice)"

step "read 21 is refused and bans alice"
echo "   $(curl -s -i -H "Authorization: Bearer $ALICE" "$BASE/questions/2/answer" | tr -d '\r' | grep -E '^HTTP|^Retry-After|^\{' | tr '\n' ' ')"
bans=$(curl -s -H "Authorization: Bearer $ADMIN" "$BASE/admin/bans")
echo "   GET /admin/bans: $bans"
check "alice listed as banned" yes "$(echo "$bans" | grep -q '"username":"alice"' && echo yes || echo no)"

step "alice is kicked out: her token gets 401, her login 403"
check "alice's token" 401 "$(read_answer "$ALICE" 1)"
echo "   login: $(login alice)"
check "alice's login" 403 "$(login_status alice)"

step "bob still reads"
BOB=$(login bob | token_of)
check "bob reads an answer" 200 "$(read_answer "$BOB" 3)"

step "the admin lifts the ban"
check "DELETE /admin/bans/alice" 204 "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE -H "Authorization: Bearer $ADMIN" "$BASE/admin/bans/alice")"

step "alice logs in and reads again"
ALICE=$(login alice | token_of)
check "alice's new token issued" yes "$([ -n "$ALICE" ] && echo yes || echo no)"
check "alice reads an answer" 200 "$(read_answer "$ALICE" 1)"

echo
if [ "$failures" -eq 0 ]; then echo "The story played out as described."; else echo "$failures step(s) failed."; exit 1; fi
