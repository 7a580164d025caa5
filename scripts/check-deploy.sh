#!/usr/bin/env bash
# Every shipped configuration in deploy/, checked by its own tool (docs/operations.md): haproxy
# and nginx with a throwaway certificate where their files name the real one, systemd's unit,
# and the Compose file against the Compose Specification's schema. portal.env.example is loaded
# through the portal's own settings by apps/server/src/config.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=portal.example.in \
  -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2>/dev/null
cat "$work/fullchain.pem" "$work/privkey.pem" >"$work/portal.pem"

echo "haproxy -c: deploy/haproxy.cfg, deploy/compose-haproxy.cfg"
sed "s#/etc/haproxy/certs/portal.pem#$work/portal.pem#" deploy/haproxy.cfg >"$work/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg"
haproxy -c -q -f deploy/compose-haproxy.cfg

echo "nginx -t: deploy/nginx.conf, inside a main file as conf.d includes it"
sed "s#/etc/ssl/portal/#$work/#g" deploy/nginx.conf >"$work/portal.conf"
cat >"$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log stderr;
events {}
http {
  access_log off;
  include $work/portal.conf;
}
NGINX
nginx -t -q -e stderr -p "$work" -c "$work/nginx.conf"

echo "systemd-analyze verify: deploy/portal@.service as portal@3001"
mkdir "$work/units"
cp deploy/portal@.service "$work/units/"
ln -s portal@.service "$work/units/portal@3001.service"
# a key in the wrong section is only a warning to systemd, and would be ignored at run time
said=$(SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no "$work/units/portal@3001.service" 2>&1)
if [ -n "$said" ]; then
  echo "$said" >&2
  exit 1
fi

echo "Compose Specification schema: deploy/compose.yaml"
node scripts/check-compose.mjs deploy/compose.yaml

echo "promtool: deploy/prometheus/portal-alerts.yml and its tests"
promtool check rules deploy/prometheus/portal-alerts.yml
(cd deploy/prometheus && promtool test rules portal-alerts.test.yml)
