#!/usr/bin/env bash
# Plays one complete game with only `tools new/status/legal/act`, choosing the
# first legal decision each time. Usage: play_game.sh GAME SEATS
# Prints the game id. Needs PRIVATEER_DB set (or the default ./privateer.db).
set -euo pipefail
game=$1
seats=$2
first() { python -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d[0]) if d else "")'; }
field() { python -c "import json,sys; v=json.load(sys.stdin)[\"$1\"]; print(' '.join(map(str,v)) if isinstance(v,list) else v)"; }

id=$(tools new "$game" --seats "$seats")
for _ in $(seq 1 2000); do
  st=$(tools status "$id" --json)
  if [ "$(echo "$st" | field finished)" = "True" ]; then
    echo "$id"
    exit 0
  fi
  for seat in $(echo "$st" | field to_act); do
    decision=$(tools legal "$id" --seat "$seat" --json | first)
    tools act "$id" --seat "$seat" "$decision" > /dev/null
  done
done
echo "game did not finish" >&2
exit 1
