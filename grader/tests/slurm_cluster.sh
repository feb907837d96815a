#!/usr/bin/env bash
# A throwaway single-node Slurm cluster on loopback, for the grader's Slurm
# test (grade_slurm.py); installs nothing (CI installs slurmctld, slurmd,
# slurm-client and munge: .ci/run).
#
#   slurm_cluster.sh start DIR   munged, slurmctld and slurmd with their
#                                config, state, logs and pid files in DIR;
#                                prints the environment clients need
#                                (SLURM_CONF=DIR/slurm.conf), also in DIR/env
#   slurm_cluster.sh stop DIR    stops exactly the daemons started in DIR
#                                (their pid files), then waits for them
#
# One node (this host, CPUs as nproc says, no GPU gres), no accounting
# database, root as SlurmUser (CI runs as root). Two ports free when it
# starts, so neither a real Slurm on the machine nor another test cluster
# (two test runs at once) is disturbed.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

stop() {
  local name pid i
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid" 2>/dev/null || true)
    [ -n "$pid" ] || continue
    kill -TERM "$pid" 2>/dev/null || continue
    for i in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

for tool in munged slurmctld slurmd sbatch squeue; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "slurm_cluster: $tool is not installed" >&2
    exit 3
  fi
done
export PATH="/usr/sbin:$PATH"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
node=$(hostname -s)
cpus=$(nproc)
# Whatever fails from here on, leave nothing running.
trap 'stop' ERR

dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
       --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
       --seed-file="$dir/munge/seed"

# Two ports nothing listens on now (the kernel's choice for port 0).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')

cat > "$dir/slurm.conf" <<EOF
ClusterName=wbtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
echo "SLURM_CONF=$dir/slurm.conf" > "$dir/env"
export SLURM_CONF="$dir/slurm.conf"

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Ready when the node is idle.
for i in $(seq 60); do
  if sinfo -h -N -o "%T" 2>/dev/null | grep -qx "idle"; then
    cat "$dir/env"
    exit 0
  fi
  sleep 1
done
echo "slurm_cluster: the node did not become idle in 60 s; the logs:" >&2
tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
stop
exit 1
