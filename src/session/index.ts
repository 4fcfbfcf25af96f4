/** `mcp-kernel/session`: the session reducer of both eras, its vocabulary, and replay. */
export { createSession, negotiatedVersion, resolveOptions, step } from "./session.js";
export { nextDeadline } from "./timeouts.js";
export { INBOUND_GATE, OUTBOUND_GATE, TRANSITIONS, negotiateVersion, nextPhase } from "./lifecycle.js";
export type { LifecycleEvent, PhaseName } from "./lifecycle.js";
export { canonicalJson, recordingSession, replay, transcriptHeader, transcriptLine } from "./transcript.js";
export type { ReplayResult, TranscriptHeader, TranscriptStep } from "./transcript.js";
export { LOGGING_LEVELS, idKey } from "./types.js";
export type {
  Diagnostic,
  Icon,
  Implementation,
  InboundRequest,
  LoggingLevel,
  MrtrRound,
  OutboundRequest,
  PeerInfo,
  Phase,
  ResolvedOptions,
  SessionInput,
  SessionOptions,
  SessionOutput,
  SessionState,
  StepResult,
} from "./types.js";
