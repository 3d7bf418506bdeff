# The nginx e2e site both nginx service tests use (sourced after lib.sh and
# service_lib.sh, with S and D set): a tmpfs at $S with pages, CGI scripts,
# data directories and a world-readable key (only the policy stops its
# read), and the site enabled in place of Debian's default.
nginx_site() {
	hm_svc_tmpfs "$S"
	mkdir -p "$S/www/static" "$S/cgi-bin" "$S/data/notes" "$S/data/uploads" \
		"$S/data/items" "$S/secret" "$S/log" "$S/run"
	echo '<h1>histmac e2e</h1>' >"$S/www/index.html"
	for i in $(seq 20); do
		echo "page $i" >"$S/www/static/page-$(printf %04d $((RANDOM % 10000))).html"
	done
	cp "$D/cgi.sh" "$D/notes.sh" "$D/save.sh" "$D/status.sh" "$S/cgi-bin/"
	cp "$D/backend.py" "$D/logrotate.conf" "$S/"
	echo "-----BEGIN PRIVATE KEY----- $RANDOM$RANDOM" >"$S/secret/key.pem"
	chmod 644 "$S/secret/key.pem"
	chown -R www-data "$S/data/notes" "$S/data/uploads"

	hm_svc_backup /etc/nginx/sites-enabled/default /etc/nginx/sites-enabled/histmac-e2e
	rm -f /etc/nginx/sites-enabled/default
	cp "$D/site.conf" /etc/nginx/sites-enabled/histmac-e2e
	hm_on_exit "rm -f /var/log/nginx/histmac-e2e.*"
	nginx -t -q || hm_fail "nginx rejects the e2e site"
}
