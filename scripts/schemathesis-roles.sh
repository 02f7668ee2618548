#!/usr/bin/env bash
# schemathesis against `photos serve`'s OpenAPI document as each kind of client of a library
# with people: the album owner (a token of Ana's), a viewer (Cy's) and a contributor (Dee's)
# of her shared album, another person (Ben's), an administrator (Ed's), a public link's visitor
# (its cookie), a password link's visitor who gave its password (both cookies) and one who
# didn't, an expired link's and a revoked link's visitors, and nobody. Every run must find no server error (`not_a_server_error`); the
# WebSocket route's 101 answer shows as one "Network Error" per run (the client waits for a
# body that a WebSocket never sends).
#
#   scripts/schemathesis-roles.sh [PHOTOS_BINARY] [--max-examples N]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
photos="${1:-$repo/.build/debug/photos}"
examples="${3:-10}"
command -v schemathesis >/dev/null || python3 -m pip install --quiet 'schemathesis>=4'
work="$(mktemp -d)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
library="$work/Library.photoslibrary"
"$photos" import --library "$library" $(ls "$repo"/.corpus/*.jpg | head -5) >/dev/null
echo "correct horse" | "$photos" user add --library "$library" ana >/dev/null
echo "battery staple" | "$photos" user add --library "$library" ben >/dev/null
echo "cy's password" | "$photos" user add --library "$library" cy >/dev/null
echo "dee's password" | "$photos" user add --library "$library" dee >/dev/null
echo "ed's password" | "$photos" user add --library "$library" --admin ed >/dev/null
for person in ana ben cy dee ed; do
    declare "$person=$("$photos" token create --library "$library" --level read-write --user "$person" --quiet)"
done
"$photos" serve --library "$library" --port "$port" > "$work/serve.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf "$base/openapi.json" >/dev/null && break; sleep 0.1; done
asset=$(curl -s -H "Authorization: Bearer $ana" "$base/api/assets?limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["assets"][0]["id"])')
link=$(curl -s -H "Authorization: Bearer $ana" -H 'Content-Type: application/json' -d "{\"assets\":[\"$asset\"]}" "$base/api/links" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
# Ana's shared album of that photo: Cy a viewer, Dee a contributor; a password link to it.
album=$(curl -s -H "Authorization: Bearer $ana" -H 'Content-Type: application/json' -d '{"operations":[
    {"op":"createSharedAlbum","title":"Trip","ref":"trip"}, {"op":"addToAlbum","album":"trip","assets":["'"$asset"'"]},
    {"op":"shareAlbum","album":"trip","person":"cy","role":"viewer"}, {"op":"shareAlbum","album":"trip","person":"dee","role":"contributor"}]}' \
    "$base/api/changes" | python3 -c 'import json, sys; print(json.load(sys.stdin)["created"]["trip"])')
locked=$(curl -s -H "Authorization: Bearer $ana" -H 'Content-Type: application/json' \
    -d "{\"album\":\"$album\",\"password\":\"link password\"}" "$base/api/links" | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
unlock=$(curl -s -D - -o /dev/null -H "Cookie: photos_link=$locked" -H 'Content-Type: application/json' -d '{"password":"link password"}' \
    "$base/api/links/unlock" | sed -n 's/^[Ss]et-[Cc]ookie: \(photos_link_unlock=[^;]*\).*/\1/p')
[ -n "$unlock" ] || { echo "the password link did not unlock" >&2; exit 1; }
link_to_album() {  # link_to_album JSON-FIELDS: a new link to the album; prints its secret
    curl -sf -H "Authorization: Bearer $ana" -H 'Content-Type: application/json' -d "{\"album\":\"$album\"$1}" "$base/api/links" \
        | python3 -c 'import json, sys; made = json.load(sys.stdin); print(made["secret"], made["link"]["identifier"])'
}
read -r expired _ < <(link_to_album ",\"expirationDate\":\"$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)\"")
read -r revoked revoked_id < <(link_to_album "")
curl -sf -X DELETE -H "Authorization: Bearer $ana" "$base/api/links/$revoked_id"
sleep 2.5  # the expired link's two seconds
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: photos_link=$expired" "$base/api/assets")" = 401 ] \
    || { echo "the expired link still opens" >&2; exit 1; }
failed=0
for role in album-owner viewer contributor another-person admin link-visitor password-link-visitor locked-link-visitor \
    expired-link-visitor revoked-link-visitor nobody; do
    case "$role" in
        album-owner) header=(-H "Authorization: Bearer $ana") ;;
        viewer) header=(-H "Authorization: Bearer $cy") ;;
        contributor) header=(-H "Authorization: Bearer $dee") ;;
        another-person) header=(-H "Authorization: Bearer $ben") ;;
        admin) header=(-H "Authorization: Bearer $ed") ;;
        link-visitor) header=(-H "Cookie: photos_link=$link") ;;
        password-link-visitor) header=(-H "Cookie: photos_link=$locked; $unlock") ;;
        locked-link-visitor) header=(-H "Cookie: photos_link=$locked") ;;
        expired-link-visitor) header=(-H "Cookie: photos_link=$expired") ;;
        revoked-link-visitor) header=(-H "Cookie: photos_link=$revoked") ;;
        nobody) header=() ;;
    esac
    echo "== $role"
    output=$(schemathesis run "$base/openapi.json" "${header[@]}" --checks not_a_server_error --max-examples "$examples" --workers 1 2>&1 || true)
    echo "$output" | grep -E "generated|Server error|not_a_server_error" || true
    if echo "$output" | grep -q "Server error"; then failed=1; fi
done
exit "$failed"
