#!/usr/bin/env bash
# A one-machine Slurm cluster from Debian's packages (slurmctld, slurmd, munge), for trying
# `mtsim sweep --emit-slurm` arrays for real. Everything lives in one folder: configuration made
# for this host's name and core count, a fresh munge key, state, logs and pid files.
#
#   scripts/slurm_local.sh start DIR    start munged, slurmctld and slurmd; wait until the node is
#                                       idle; prints the `export SLURM_CONF=...` line for sbatch
#   scripts/slurm_local.sh stop DIR     stop the three daemons started in DIR (by their pid files)
#
# Runs as root (the daemons run as root too: no accounts or cgroups to set up). Exit 0 when the
# cluster is up, 1 when it could not start (the reason and the daemons' logs are printed, and
# whatever had started is stopped again). Ports: 6817/6818, or MT_SLURM_PORT and MT_SLURM_PORT+1.
set -uo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd) || { echo "slurm_local: cannot use folder $2" >&2; exit 1; }

stop_daemons() {
  local name pid
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$dir/$name.pid"
  done
}

fail() {
  echo "slurm_local: $*" >&2
  for log in munged.log slurmctld.log slurmd.log; do
    [ -s "$dir/$log" ] && { echo "--- $dir/$log (last lines)" >&2; tail -n 15 "$dir/$log" >&2; }
  done
  stop_daemons
  exit 1
}

if [ "$action" = stop ]; then
  stop_daemons
  echo "slurm_local: stopped the daemons of $dir"
  exit 0
fi
[ "$action" = start ] || usage

for tool in munged slurmctld slurmd sinfo sbatch; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (scripts/setup.sh installs slurmctld, slurmd, slurm-client and munge)"
done
[ "$(id -u)" -eq 0 ] || fail "needs root (the daemons run as root here)"
stop_daemons  # a previous cluster in the same folder

host=$(hostname -s)
cores=$(nproc)
port=${MT_SLURM_PORT:-6817}
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" /run/munge /run/slurm
chmod 700 "$dir/munge"

# munge: its own key and socket in this folder, so the system's munge (if any) is not touched.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" \
  || fail "munged did not start"
for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$dir/munge/munge.socket" ] || fail "munged's socket did not appear"

cat > "$dir/slurm.conf" <<CONF
# Written by scripts/slurm_local.sh for host $host ($cores cores).
ClusterName=mtsim-local
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=1001
NodeName=$host CPUs=$cores State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

slurmctld -f "$dir/slurm.conf" -i || fail "slurmctld did not start"
slurmd -f "$dir/slurm.conf" || fail "slurmd did not start"
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
  case "$state" in idle*|mixed*|allocated*) break ;; esac
  sleep 0.2
done
case "$state" in
  idle*|mixed*|allocated*) ;;
  *) fail "the node did not come up within 30 s (sinfo says: ${state:-nothing})" ;;
esac
echo "slurm_local: cluster up on $host ($cores cores), node $state"
echo "export SLURM_CONF=$dir/slurm.conf"
