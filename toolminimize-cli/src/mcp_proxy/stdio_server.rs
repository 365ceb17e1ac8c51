//! An MCP server run as a child process over the stdio transport: its input is fed from a
//! channel of lines, its output read into a channel of frames, and it is stopped (input
//! closed, then SIGTERM, then SIGKILL) when the proxy is done with it.

use std::process::{ExitCode, ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

use super::framing::Frame;
use super::pump::{ToServer, read_lines};

/// Messages queued per direction before reading pauses.
pub(crate) const QUEUE: usize = 64;

/// A running server process.
#[derive(Debug)]
pub(crate) struct StdioServer {
    child: Child,
    /// The program, for messages.
    pub(crate) program: String,
}

/// The channels of a running server: lines to write to it, frames read from it.
#[derive(Debug)]
pub(crate) struct StdioPipes {
    pub(crate) to_server: mpsc::Sender<ToServer>,
    pub(crate) from_server: mpsc::Receiver<Frame>,
}

impl StdioServer {
    /// Starts `command` (program and arguments) and the two tasks that feed and read it.
    pub(crate) fn spawn(command: &[String], max: usize) -> Result<(Self, StdioPipes), String> {
        let (program, rest) = command
            .split_first()
            .ok_or_else(|| "no MCP server command after `--`".to_owned())?;
        let mut child = Command::new(program)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start the MCP server `{program}`: {e}"))?;
        let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the MCP server's stdin and stdout are not available".into());
        };
        let (to_server, server_rx) = mpsc::channel::<ToServer>(QUEUE);
        let (frames_tx, from_server) = mpsc::channel::<Frame>(QUEUE);
        tokio::spawn(write_server(child_in, server_rx));
        tokio::spawn(read_lines(
            BufReader::with_capacity(1 << 16, child_out),
            max,
            frames_tx,
            "server",
        ));
        Ok((
            StdioServer {
                child,
                program: program.clone(),
            },
            StdioPipes {
                to_server,
                from_server,
            },
        ))
    }

    /// Waits for the process to exit.
    pub(crate) async fn wait(&mut self) -> std::io::Result<ExitStatus> {
        self.child.wait().await
    }

    /// After its input was closed: gives the server `grace` to exit, then SIGTERM, then (as
    /// long again later) SIGKILL. Returns the status and whether it had to be stopped.
    pub(crate) async fn shut_down(
        &mut self,
        grace: Duration,
    ) -> (std::io::Result<ExitStatus>, bool) {
        match tokio::time::timeout(grace, self.child.wait()).await {
            Ok(status) => (status, false),
            Err(_) => (self.terminate(grace).await, true),
        }
    }

    /// Sends SIGTERM, waits, then kills.
    pub(crate) async fn terminate(&mut self, grace: Duration) -> std::io::Result<ExitStatus> {
        #[cfg(unix)]
        if let Some(pid) = self.child.id().and_then(|p| i32::try_from(p).ok()) {
            use nix::sys::signal::{Signal, kill};
            use nix::unistd::Pid;
            let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
            if let Ok(status) = tokio::time::timeout(grace, self.child.wait()).await {
                return status;
            }
        }
        let _ = self.child.start_kill();
        self.child.wait().await
    }
}

async fn write_server(mut stdin: ChildStdin, mut rx: mpsc::Receiver<ToServer>) {
    while let Some(msg) = rx.recv().await {
        match msg {
            ToServer::Line(line) => {
                if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
                    // The server stopped reading; its exit ends the proxy.
                    break;
                }
            }
            ToServer::Close => break,
        }
    }
    // Dropping stdin closes the server's input: the MCP way to ask it to exit.
    drop(stdin);
    // Keep draining so senders never block on a full queue.
    while rx.recv().await.is_some() {}
}

/// How a status reads in a message.
pub(crate) fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    "no exit status".to_owned()
}

/// The server's exit code; 128 + the signal number when a signal ended it.
pub(crate) fn exit_code(status: ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return ExitCode::from(u8::try_from(128 + signal).unwrap_or(1));
        }
    }
    ExitCode::FAILURE
}
