// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcp_listen.c - accept and close TCP connections on 127.0.0.1, for the
 * sandbox test and benchmark: a connect that fails then failed before
 * reaching the listener (Landlock), not because nobody listened.
 * Built on the fly (cc); not part of histmac.
 *
 * usage: tcp_listen PORT...   listen on each PORT (0: an ephemeral one),
 *                             print the ports on one line, serve until
 *                             killed; exit 1 when one is taken
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXP 8

int main(int argc, char **argv)
{
	struct pollfd p[MAXP];
	int n = argc - 1;

	if (n < 1 || n > MAXP)
		return 2;
	for (int i = 0; i < n; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t len = sizeof(a);

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		a.sin_port = htons((uint16_t)atoi(argv[i + 1]));
		p[i].fd = socket(AF_INET, SOCK_STREAM, 0);
		p[i].events = POLLIN;
		if (p[i].fd < 0 || bind(p[i].fd, (void *)&a, sizeof(a)) ||
		    listen(p[i].fd, 128) ||
		    getsockname(p[i].fd, (void *)&a, &len))
			return perror("tcp_listen"), 1;
		printf("%s%u", i ? " " : "", ntohs(a.sin_port));
	}
	printf("\n");
	fflush(stdout);
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0)
			return 1;
		for (int i = 0; i < n; i++)
			if (p[i].revents & POLLIN) {
				int c = accept(p[i].fd, NULL, NULL);

				if (c >= 0)
					close(c);
			}
	}
}
