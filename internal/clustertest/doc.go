// Package clustertest runs the cluster recipes of docs/book.md for real.
// It has no code, only tests:
//
//   - TestSlurmRecipe starts a Slurm of one node on this machine (its own
//     munged, slurmctld and slurmd, with their own key, socket, ports and
//     configuration in a temporary directory; select/cons_tres, 2 CPUs),
//     takes the batch script book.sbatch from docs/book.md as it is
//     written there, runs it as a job array of 4 shards of a small book
//     (6x5, depth 6), cancels one task part way with scancel and queues
//     it again with scontrol requeue, merges the parts with c4solve book
//     merge and checks that the book is byte for byte the one a single
//     run writes, and that the requeued shard resumed from its
//     checkpoint.
//
// It runs only with -slurm (as .ci/run runs it, after installing Debian's
// slurm-wlm and munge) and as root (slurmd starts the jobs), and skips,
// saying why, where a daemon or command is missing: go test ./... skips it
// at once. The Kubernetes recipe has not been run.
package clustertest
