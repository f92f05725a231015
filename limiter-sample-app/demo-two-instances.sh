#!/usr/bin/env bash
# Starts two instances of the sample app on one Redis and walks demo.sh's story alternating between
# them, as a load balancer without sticky sessions would. Instance A starts the demo's embedded Redis
# on REDIS_PORT; instance B uses it. Both stop when the script ends.
#   limiter-sample-app/demo-two-instances.sh       (PORT_A, PORT_B, REDIS_PORT to change the ports)
# Builds the app's jar first if it is not there (./mvnw -pl limiter-sample-app -am package -DskipTests).
set -euo pipefail
cd "$(dirname "$0")"
PORT_A="${PORT_A:-8081}"
PORT_B="${PORT_B:-8082}"
REDIS_PORT="${REDIS_PORT:-6390}"
jar=$(ls target/limiter-sample-app-*.jar 2>/dev/null | grep -v -- '-plain' | head -1 || true)
if [ -z "$jar" ]; then
  (cd .. && ./mvnw -q -pl limiter-sample-app -am package -DskipTests)
  jar=$(ls target/limiter-sample-app-*.jar | head -1)
fi
logs=$(mktemp -d)
pids=()
stop() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT

start() { # start <name> <port> <args...>
  java -jar "$jar" --server.port="$2" --spring.main.banner-mode=off "${@:3}" > "$logs/$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null "http://localhost:$2/actuator/health"; then echo "instance $1 is up on port $2 (log: $logs/$1.log)"; return; fi
    sleep 0.5
  done
  echo "instance $1 did not start; its log:" >&2; cat "$logs/$1.log" >&2; exit 1
}

start A "$PORT_A" --sample.embedded-redis.port="$REDIS_PORT"
start B "$PORT_B" --spring.data.redis.port="$REDIS_PORT"
BASE="http://localhost:$PORT_A" BASE2="http://localhost:$PORT_B" ./demo.sh
