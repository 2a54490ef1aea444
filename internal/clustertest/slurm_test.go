package clustertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var slurm = flag.Bool("slurm", false, "run TestSlurmRecipe: start a Slurm of one node (slurm-wlm and munge installed, as root)")

// root is the repository's root, from this package's directory.
const root = "../.."

// recordSize is the size of a record of a checkpoint after its first line
// (book/checkpoint.go), to count the positions a checkpoint holds.
const recordSize = 21

// shards is the size of the test's job array; bookArgs are the book
// generate arguments it passes: a small book, a few seconds of search a
// shard at one thread.
const shards = 4

var bookArgs = []string{"-size", "6x5", "-depth", "6", "-nobook", "-tt", "16"}

// sbatchScript returns the batch script of docs/book.md: the fenced block
// that holds #SBATCH lines.
func sbatchScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "book.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(b), "```")[1:] {
		_, body, ok := strings.Cut(block, "\n")
		if ok && strings.Contains(body, "\n#SBATCH ") {
			return body
		}
	}
	t.Fatal("docs/book.md holds no batch script (a fenced block with #SBATCH lines)")
	return ""
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A cluster is a Slurm of one node that the test started.
type cluster struct {
	t   *testing.T
	dir string   // its configuration, state and logs
	env []string // the environment of its commands: SLURM_CONF and PATH
}

// daemon starts a daemon in the foreground, its output in dir/NAME.out,
// and stops it when the test ends.
func (c *cluster) daemon(name string, args ...string) {
	c.t.Helper()
	out, err := os.Create(filepath.Join(c.dir, name+".out"))
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = c.env, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); out.Close(); close(done) }()
	c.t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}

// run runs a Slurm or c4solve command in dir and returns its standard
// output; it fails the test if the command fails.
func (c *cluster) run(dir, name string, args ...string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, c.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// waitFor polls cond every 20 ms until it holds, and fails the test,
// with the daemons' logs, if it does not within d.
func (c *cluster) waitFor(d time.Duration, what string, cond func() bool) {
	c.t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			c.t.Fatalf("waited %v for %s; the logs are:\n%s", d, what, c.logs())
		}
	}
}

// logs returns the end of each daemon's log, for failures.
func (c *cluster) logs() string {
	var s strings.Builder
	for _, name := range []string{"munged.out", "slurmctld.log", "slurmd.log"} {
		b, _ := os.ReadFile(filepath.Join(c.dir, name))
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		fmt.Fprintf(&s, "== %s\n%s\n", name, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return s.String()
}

// startCluster starts munged, slurmctld and slurmd with a configuration
// of their own in a temporary directory: a node of 2 CPUs named after
// this machine, select/cons_tres, no cgroups, no accounting.
func startCluster(t *testing.T, binDir string) *cluster {
	t.Helper()
	dir := t.TempDir()
	// munged wants the directories of its socket and key not writable by
	// others, and reachable by all.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, dir: dir}
	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	conf := filepath.Join(dir, "slurm.conf")
	err = os.WriteFile(conf, []byte(fmt.Sprintf(`ClusterName=c4test
SlurmctldHost=%[2]s(127.0.0.1)
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[1]s/munge.sock
CredType=cred/munge
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/slurmd.pid
SlurmctldLogFile=%[1]s/slurmctld.log
SlurmdLogFile=%[1]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=5
NodeName=%[2]s NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 State=UNKNOWN
PartitionName=c4 Nodes=%[2]s Default=YES MaxTime=INFINITE State=UP
`, dir, host, freePort(t), freePort(t))), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	c.env = append(os.Environ(), "SLURM_CONF="+conf, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	c.daemon("munged", "-F", "-f", "--socket="+dir+"/munge.sock", "--key-file="+dir+"/munge.key",
		"--pid-file="+dir+"/munged.pid", "--seed-file="+dir+"/munged.seed", "--log-file="+dir+"/munged.log")
	c.waitFor(10*time.Second, "munged's socket", func() bool {
		_, err := os.Stat(filepath.Join(dir, "munge.sock"))
		return err == nil
	})
	c.daemon("slurmctld", "-D", "-f", conf)
	c.daemon("slurmd", "-D", "-f", conf, "-N", host)
	c.waitFor(30*time.Second, "the node to be idle (sinfo)", func() bool {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = c.env
		out, err := cmd.Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	return c
}

// taskStates returns the state of each task of the job array job, by its
// index, as squeue -t all says.
func (c *cluster) taskStates(job string) map[int]string {
	c.t.Helper()
	states := map[int]string{}
	for _, l := range strings.Split(c.run(c.dir, "squeue", "-h", "-t", "all", "-r", "-j", job, "-o", "%K %T"), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			if k, err := strconv.Atoi(f[0]); err == nil {
				states[k] = f[1]
			}
		}
	}
	return states
}

// checkpointRecords returns the positions the checkpoint at name holds
// (0 where there is none).
func checkpointRecords(name string) int {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return 0
	}
	return (len(b) - i - 1) / recordSize
}

var resumed = regexp.MustCompile(`resumed=([0-9]+)`)

// TestSlurmRecipe runs docs/book.md's batch script on a Slurm of one
// node: 4 shards of a 6x5 book of depth 6 as a job array, the first
// cancelled part way and queued again, then book merge; the book must be
// the single run's, byte for byte.
func TestSlurmRecipe(t *testing.T) {
	if !*slurm {
		t.Skip("starts a Slurm of its own: run with -slurm (.ci/run does)")
	}
	for _, cmd := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("%s not found: install Debian's slurm-wlm and munge (apt-get install slurm-wlm munge)", cmd)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("slurmd must run as root to start jobs: run as root")
	}
	start := time.Now()
	binDir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(binDir, "c4solve"), "./cmd/c4solve")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/c4solve: %v\n%s", err, out)
	}
	c := startCluster(t, binDir)
	t.Logf("Slurm up in %v (c4solve built)", time.Since(start).Round(time.Millisecond))

	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "book.sbatch"), []byte(sbatchScript(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	// --cpus-per-task and --mem on the command line override the
	// script's, which are for a real machine.
	args := append([]string{"--parsable", fmt.Sprintf("--array=1-%d", shards), "--cpus-per-task=1", "--mem=500M",
		"book.sbatch", strconv.Itoa(shards)}, bookArgs...)
	job := strings.TrimSpace(c.run(work, "sbatch", args...))
	job, _, _ = strings.Cut(job, ";")
	t.Logf("sbatch %s: job %s", strings.Join(args, " "), job)

	// Cancel shard 1 once its checkpoint holds a few positions.
	ck := filepath.Join(work, "part1.c4book.checkpoint")
	c.waitFor(2*time.Minute, "shard 1 to checkpoint 10 positions", func() bool {
		if _, err := os.Stat(filepath.Join(work, "part1.c4book")); err == nil {
			t.Fatalf("shard 1 finished before it could be cancelled; the machine is faster than the test assumes: give it a larger book")
		}
		return checkpointRecords(ck) >= 10
	})
	c.run(work, "scancel", job+"_1")
	c.waitFor(time.Minute, "shard 1 to be CANCELLED", func() bool { return c.taskStates(job)[1] == "CANCELLED" })
	kept := checkpointRecords(ck)
	if _, err := os.Stat(filepath.Join(work, "part1.c4book")); err == nil {
		t.Fatalf("shard 1 was cancelled but wrote part1.c4book")
	}
	if kept < 10 {
		t.Fatalf("the cancelled shard's checkpoint holds %d positions; want at least the 10 it held when cancelled", kept)
	}
	t.Logf("shard 1 cancelled with %d positions in its checkpoint", kept)
	c.run(work, "scontrol", "requeue", job+"_1")
	c.run(work, "scontrol", "update", "jobid="+job+"_1", "starttime=now")

	c.waitFor(5*time.Minute, "every task to be COMPLETED", func() bool {
		states := c.taskStates(job)
		for k := 1; k <= shards; k++ {
			switch states[k] {
			case "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE":
				log, _ := os.ReadFile(filepath.Join(work, fmt.Sprintf("part%d.log", k)))
				t.Fatalf("task %d: %s; its log:\n%s", k, states[k], log)
			case "COMPLETED":
			default:
				return false
			}
		}
		return true
	})
	t.Logf("job array done at %v", time.Since(start).Round(time.Millisecond))

	log, err := os.ReadFile(filepath.Join(work, "part1.log"))
	if err != nil {
		t.Fatal(err)
	}
	m := resumed.FindAllSubmatch(log, -1)
	if len(m) == 0 {
		t.Fatalf("part1.log has no summary line (resumed=N):\n%s", log)
	}
	if n, _ := strconv.Atoi(string(m[len(m)-1][1])); n < kept {
		t.Errorf("the requeued shard 1 says resumed=%d; want the %d positions of its checkpoint:\n%s", n, kept, log)
	}

	var parts []string
	for k := 1; k <= shards; k++ {
		parts = append(parts, fmt.Sprintf("part%d.c4book", k))
	}
	c4solve := filepath.Join(binDir, "c4solve")
	c.run(work, c4solve, append([]string{"book", "merge", "-o", "merged.c4book"}, parts...)...)
	c.run(work, c4solve, append([]string{"book", "generate", "-threads", "2", "-o", "single.c4book"}, bookArgs...)...)
	merged, err := os.ReadFile(filepath.Join(work, "merged.c4book"))
	if err != nil {
		t.Fatal(err)
	}
	single, err := os.ReadFile(filepath.Join(work, "single.c4book"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged, single) {
		t.Errorf("the merged book (%d bytes) differs from the single run's (%d bytes)", len(merged), len(single))
	}
	t.Logf("merged book = single run's, %d bytes; %v in all", len(merged), time.Since(start).Round(time.Millisecond))
}
