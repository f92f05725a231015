#!/usr/bin/env bash
# Walks the anti-crawler story against a running sample app, with curl only, then the plans: carol
# (pro) reads past free's limit, and the admin raises free's max while the app runs; then the limits
# of failed logins (guesses go over IPv4, so that the demo can clear the count of 127.0.0.1):
#   ./mvnw -pl limiter-sample-app -am spring-boot:run     (in another terminal)
#   limiter-sample-app/demo.sh                            (BASE=http://host:port to point elsewhere)
# With BASE2 set too, the story alternates between two instances on one Redis, as a load balancer
# without sticky sessions would send it (demo-two-instances.sh starts them).
# Exits non-zero at the first step that does not behave as described.
set -u
A="${BASE:-http://localhost:8080}"
B="${BASE2:-$A}"
failures=0

step() { printf '\n== %s\n' "$*"; }
check() { # check <what> <expected> <actual>
  if [ "$2" = "$3" ]; then printf '   ok    %-60s %s\n' "$1" "$3"
  else printf '   FAIL  %-60s expected %s, got %s\n' "$1" "$2" "$3"; failures=$((failures + 1)); fi
}
on() { [ "$1" = "$A" ] && echo A || echo B; } # which instance a base is
login() { # login <base> <user> -> prints the whole response body
  curl -s -X POST -H 'Content-Type: application/json' \
    -d "{\"username\":\"$2\",\"password\":\"password\"}" "$1/api/login"
}
token_of() { sed -n 's/.*"token":"\([^"]*\)".*/\1/p'; }
login_status() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d "{\"username\":\"$2\",\"password\":\"password\"}" "$1/api/login"; }
status() { # status <method> <base><path> [token] -> HTTP status
  curl -s -o /dev/null -w '%{http_code}' -X "$1" ${3:+-H "Authorization: Bearer $3"} "$2"
}
read_answer() { status GET "$1/questions/$3/answer" "$2"; } # read_answer <base> <token> <question>
alerts_for() { # alerts_for <base> <user> -> how many alerts the admin sees for the user
  curl -s -H "Authorization: Bearer $ADMIN" "$1/admin/alerts" | grep -o "\"username\":\"$2\"" | wc -l | tr -d ' '
}
bans_for() { # bans_for <base> <user> -> how many active bans the admin sees for the user
  curl -s -H "Authorization: Bearer $ADMIN" "$1/admin/bans" | grep -o "\"username\":\"$2\"" | wc -l | tr -d ' '
}
post_json() { # post_json <base><path> <token> <json> -> the response's body, a space and its HTTP status
  curl -s -w ' %{http_code}' -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $2" -d "$3" "$1"
}
count_of() { # count_of <base> <limit-id> <user> -> the user's reads in the window under the limit
  curl -s -H "Authorization: Bearer $ADMIN" "$1/actuator/ratelimits/$2/$3" | sed -nE 's/.*"count":([0-9]+).*/\1/p'
}
free_override() { # free_override <base> -> policy free's override as that instance applies it: null or {...}
  curl -s -H "Authorization: Bearer $ADMIN" "$1/actuator/ratelimits" | sed -nE 's/.*"free":\{[^}]*"override":(null|\{[^}]*\}).*/\1/p'
}
free_max() { # free_max <base> -> the max that limit answers.free applies on that instance now
  curl -s -H "Authorization: Bearer $ADMIN" "$1/actuator/ratelimits" \
    | sed -nE 's/.*\{"limitId":"answers\.free",[^}]*"max":([0-9]+).*/\1/p'
}
guess() { # guess <base> <user> <password> -> HTTP status of a login with that password, over IPv4
  curl -4 -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d "{\"username\":\"$2\",\"password\":\"$3\"}" "$1/api/login"
}
forget_guesses() { # the demo's failed logins: bob's, and those of the address its guesses come from
  curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/actuator/ratelimits/login.user/bob"
  curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/actuator/ratelimits/login.address/127.0.0.1"
}
eventually() { # eventually <expected> <command...>: the limiter records alerts and bans a moment after the call
  local value
  for _ in $(seq 1 50); do value=$("${@:2}"); [ "$value" = "$1" ] && break; sleep 0.1; done
  echo "$value"
}

if [ "$A" = "$B" ]; then printf 'One instance, %s: A and B below are both this one\n' "$A"
else printf 'Two instances: A = %s, B = %s\n' "$A" "$B"; fi

step "admin logs in on $(on "$A") and clears what an earlier run left: alice's ban, bob's and carol's counts, free's change, failed logins"
ADMIN=$(login "$A" admin | token_of)
check "admin token issued" yes "$([ -n "$ADMIN" ] && echo yes || echo no)"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/admin/bans/alice"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/admin/bans/bob"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/admin/bans/carol"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $ADMIN" "$A/actuator/ratelimits/free"
forget_guesses
alerts_before=$(alerts_for "$A" alice)

step "alice logs in (on A and on B) and reads 10 answers, alternating"
ALICE_A=$(login "$A" alice | token_of)
ALICE_B=$(login "$B" alice | token_of)
statuses=""
for i in $(seq 1 10); do
  if [ $((i % 2)) -eq 1 ]; then statuses="$statuses$(read_answer "$A" "$ALICE_B" $((1 + i % 3))) "
  else statuses="$statuses$(read_answer "$B" "$ALICE_A" $((1 + i % 3))) "; fi
done
echo "   statuses: $statuses"
check "reads 1-10 all answered" "$(printf '200 %.0s' $(seq 1 10))" "$statuses"
check "no alert yet" "$alerts_before" "$(alerts_for "$B" alice)"

step "read 11 raises exactly one alert, seen on every instance"
check "read 11 answered by $(on "$B")" 200 "$(read_answer "$B" "$ALICE_A" 1)"
check "one new alert for alice, seen on A" "$((alerts_before + 1))" "$(eventually $((alerts_before + 1)) alerts_for "$A" alice)"
check "one new alert for alice, seen on B" "$((alerts_before + 1))" "$(eventually $((alerts_before + 1)) alerts_for "$B" alice)"

step "reads 12-20 succeed with no new alert"
statuses=""
for i in $(seq 12 20); do
  if [ $((i % 2)) -eq 1 ]; then statuses="$statuses$(read_answer "$A" "$ALICE_A" $((1 + i % 3))) "
  else statuses="$statuses$(read_answer "$B" "$ALICE_B" $((1 + i % 3))) "; fi
done
echo "   statuses: $statuses"
check "reads 12-20 all answered" "$(printf '200 %.0s' $(seq 12 20))" "$statuses"
check "still one new alert" "$((alerts_before + 1))" "$(alerts_for "$A" alice)"

step "read 21 is refused and bans alice"
echo "   $(curl -s -i -H "Authorization: Bearer $ALICE_A" "$A/questions/2/answer" | tr -d '\r' | grep -E '^HTTP|^Retry-After|^\{' | tr '\n' ' ')"
check "alice listed as banned once, on A" 1 "$(eventually 1 bans_for "$A" alice)"
check "alice listed as banned once, on B" 1 "$(eventually 1 bans_for "$B" alice)"
echo "   GET /admin/bans: $(curl -s -H "Authorization: Bearer $ADMIN" "$B/admin/bans")"

step "alice is kicked out of every instance: her tokens get 401, her login 403"
check "alice's token from A, on A" 401 "$(read_answer "$A" "$ALICE_A" 1)"
check "alice's token from B, on A" 401 "$(read_answer "$A" "$ALICE_B" 1)"
check "alice's token from A, on B" 401 "$(read_answer "$B" "$ALICE_A" 1)"
check "alice's token from B, on B" 401 "$(read_answer "$B" "$ALICE_B" 1)"
echo "   login: $(login "$B" alice)"
check "alice's login on A" 403 "$(login_status "$A" alice)"
check "alice's login on B" 403 "$(login_status "$B" alice)"

step "bob still reads; only the admin may lift bans or use the actuator"
BOB=$(login "$B" bob | token_of)
check "bob reads an answer" 200 "$(read_answer "$A" "$BOB" 3)"
check "POST /actuator/ratelimits/answers.free/alice, no token" 401 "$(status POST "$A/actuator/ratelimits/answers.free/alice")"
check "POST /actuator/ratelimits/answers.free/alice, bob's token" 403 "$(status POST "$A/actuator/ratelimits/answers.free/alice" "$BOB")"
check "DELETE /admin/bans/alice, bob's token" 403 "$(status DELETE "$B/admin/bans/alice" "$BOB")"
check "GET /actuator/health, no token" 200 "$(status GET "$B/actuator/health")"

step "the admin lifts the ban on $(on "$A"); it is gone on every instance"
check "DELETE /admin/bans/alice on $(on "$A")" 204 "$(status DELETE "$A/admin/bans/alice" "$ADMIN")"
check "no ban for alice on A" 0 "$(bans_for "$A" alice)"
check "no ban for alice on B" 0 "$(bans_for "$B" alice)"

step "alice logs in and reads again"
ALICE=$(login "$B" alice | token_of)
check "alice's new token issued by $(on "$B")" yes "$([ -n "$ALICE" ] && echo yes || echo no)"
check "alice reads an answer on $(on "$A")" 200 "$(read_answer "$A" "$ALICE" 1)"
check "still one new alert in total" "$((alerts_before + 1))" "$(alerts_for "$B" alice)"

step "carol, on the pro plan (60 a minute, alert past 40), reads 25 answers, alternating"
carol_alerts_before=$(alerts_for "$A" carol)
CAROL=$(login "$B" carol | token_of)
statuses=""
for i in $(seq 1 25); do
  if [ $((i % 2)) -eq 1 ]; then statuses="$statuses$(read_answer "$A" "$CAROL" $((1 + i % 3))) "
  else statuses="$statuses$(read_answer "$B" "$CAROL" $((1 + i % 3))) "; fi
done
echo "   statuses: $statuses"
check "reads 1-25 all answered, past free's 20" "$(printf '200 %.0s' $(seq 1 25))" "$statuses"
check "carol's reads counted under answers.pro" 25 "$(count_of "$A" answers.pro carol)"
check "no alert for carol" "$carol_alerts_before" "$(alerts_for "$B" carol)"

step "bob, on free, reads up to 20 answers: at the limit, not past it"
statuses=""
for i in $(seq $(($(count_of "$A" answers.free bob) + 1)) 20); do
  if [ $((i % 2)) -eq 1 ]; then statuses="$statuses$(read_answer "$A" "$BOB" $((1 + i % 3))) "
  else statuses="$statuses$(read_answer "$B" "$BOB" $((1 + i % 3))) "; fi
done
echo "   statuses: $statuses"
check "bob's reads counted under answers.free" 20 "$(count_of "$B" answers.free bob)"

step "the admin raises free's max to 30 on $(on "$A"), while the app runs; every instance applies it"
response=$(post_json "$A/actuator/ratelimits/free" "$BOB" '{"max":30}')
check "POST /actuator/ratelimits/free, bob's token" 403 "${response##* }"
response=$(post_json "$A/actuator/ratelimits/free" "$ADMIN" '{"max":30,"alertAt":40}')
echo "   $response"
check "POST {max: 30, alertAt: 40}: alert-at must stay below max" 400 "${response##* }"
response=$(post_json "$A/actuator/ratelimits/free" "$ADMIN" '{"max":30,"alertAt":10}')
echo "   $response"
check "POST {max: 30, alertAt: 10} on $(on "$A")" 200 "${response##* }"
check "answers.free's max on A" 30 "$(free_max "$A")"
check "answers.free's max on B" 30 "$(eventually 30 free_max "$B")"
check "bob's read 21 answered by $(on "$B")" 200 "$(read_answer "$B" "$BOB" 1)"
check "bob's count kept, and counting" 21 "$(count_of "$A" answers.free bob)"

step "the admin restores free on $(on "$B"): back to its configured 20 on every instance"
check "DELETE /actuator/ratelimits/free on $(on "$B")" 200 "$(status DELETE "$B/actuator/ratelimits/free" "$ADMIN")"
check "free's change gone on A" null "$(eventually null free_override "$A")"
check "answers.free's max on A" 20 "$(free_max "$A")"
check "answers.free's max on B" 20 "$(free_max "$B")"

step "someone guesses bob's password, 3 times on A and 2 on B: failed logins count on every instance"
forget_guesses
statuses=""
for i in 1 2 3 4 5; do
  if [ $((i % 2)) -eq 1 ]; then statuses="$statuses$(guess "$A" bob "guess-$i") "
  else statuses="$statuses$(guess "$B" bob "guess-$i") "; fi
done
echo "   statuses: $statuses"
check "wrong passwords 1-5 answered 401" "401 401 401 401 401 " "$statuses"
echo "   $(curl -4 -s -i -X POST -H 'Content-Type: application/json' -d '{"username":"bob","password":"guess-6"}' \
  "$A/api/login" | tr -d '\r' | grep -E '^HTTP|^Retry-After' | tr '\n' ' ')"
check "wrong password 6 on $(on "$B"): past 5 in 15 minutes" 429 "$(guess "$B" bob guess-6)"
check "bob's right password on $(on "$A"), until the window ends" 429 "$(login_status "$A" bob)"
check "carol's login is her own" 200 "$(login_status "$B" carol)"
step "the admin clears bob's failed logins (and this address's); bob logs in"
forget_guesses
check "bob's right password on $(on "$B")" 200 "$(login_status "$B" bob)"

echo
if [ "$failures" -eq 0 ]; then echo "The story played out as described."; else echo "$failures step(s) failed."; exit 1; fi
