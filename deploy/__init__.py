"""Deployment configs (HAProxy, nginx, systemd) and :mod:`deploy.local`, a launcher of
a whole deployment (Redis Cluster and several servers) on loopback."""
