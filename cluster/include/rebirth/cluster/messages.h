#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/retro_problem.h"
#include "rebirth/solution.h"
#include "rebirth/solve.h"

namespace rebirth::cluster {

// Version of the wire format; frames and messages of another version are refused.
// 2: solve and noop items (SearchKind), WorkItem::max_seconds, Result::Status::Solved.
// 3: path moves carry their occurrence among identical moves (PathMove).
// 4: solve items of one root move (WorkItem::twin, phase, a one-move path),
//    Result::Status::Fragment with Result::parts and Result::timed_out.
// 5: a worker keeps several items in flight; Result::requests asks for that many new items
//    (a result no longer asks for one implicitly).
// 6: a solve root item with a budget hands back its replies (Status::Split with
//    Result::fragments for the replies searched and two-move paths pending).
// 7: proof-game items (SearchKind::ProofGame with WorkItem::lengths), answered with
//    Status::Proof and Result::proof_lines.
// 8: retro items (SearchKind::Retro with WorkItem::prefix and chunk), answered with
//    Status::Fragment.
// 9: cook-check items (SearchKind::Cookcheck), answered with Status::Solved (the claim's result
//    as a JSON line).
// 10: solve root items and replies answer with their solutions as data (Result::lines and
//    trees, ChildFragment::lines), not text.
// 11: retro items answer with their sequences or retractor trees as data (Result::retro), not
//    text lines.
// 12: a whole solve problem answers with its twins' solutions as data (Result::outputs, or
//    Result::retro_whole for a retro problem), not text.
inline constexpr std::uint16_t kProtocolVersion = 12;

// Most half-moves of a proof-game length in a message (Popeye's stipulations stay far below).
inline constexpr std::int32_t kMaxProofLength = 1000;

// Most items a worker may ask for in one message.
inline constexpr std::uint32_t kMaxRequests = 4096;

// A message that is malformed, truncated, corrupted or of another protocol version.
class ProtocolError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// One move of a path: its fields and its occurrence, the number of identical moves before
// it in its position's legal move list (Popeye lists MarsCirce castling twice; each copy
// is a move of its own).
struct PathMove {
    Move move;
    std::uint8_t occurrence = 0;
    friend bool operator==(const PathMove&, const PathMove&) = default;
};

using Path = std::vector<PathMove>;

// Perft: leaves of the subtree below a path. Solve: every twin of one problem, as
// `rebirth solve --regression`. Noop: nothing (measures the master's dispatch rate).
// ProofGame: the proof-game solutions of one play of one twin that begin with the path.
// Retro: the sequences of one side of one twin of a retro problem that begin with one
// retraction prefix (retro_problem.h's plan_retro). Cookcheck: the verdict on one claimed
// problem (problem_index: its number among read_claims of the file), as `rebirth cookcheck`.
enum class SearchKind : std::uint8_t { Perft = 1, Solve = 2, Noop = 3, ProofGame = 4, Retro = 5, Cookcheck = 6 };

// A share of a search: the subtree below `path` (moves from the problem's diagram), or for
// Solve a whole problem (empty path) or one root move of play `phase` of twin `twin`
// (a one-move path; with a budget it may hand back its replies) or one reply to it (a
// two-move path), or nothing for Noop; for ProofGame the solutions of play `phase` of twin
// `twin` of each of `lengths` that begin with `path` (half-moves from the play's start
// position: empty for a start item, the first prefix of a frontier node otherwise); for
// Retro the sequences of side `phase` of twin `twin` after the retraction prefixes of
// length `depth` of item `prefix`, `chunk` prefixes an item (retro_item_fragment).
struct WorkItem {
    std::uint16_t protocol = kProtocolVersion;
    std::uint64_t item_id = 0;
    std::uint32_t problem = 0;  // index into the job's problem list
    std::string file;           // Popeye file and 1-based problem index in it
    std::int32_t problem_index = 1;
    std::uint64_t file_hash = 0;  // checksum of the file's bytes as the master read them
    SearchKind kind = SearchKind::Perft;
    Path path;
    std::int32_t depth = 0;     // plies left below the path
    double budget_seconds = 0;  // 0 = never hand children back
    std::int32_t threads = 0;
    double max_seconds = 0;  // Solve: time limit of the problem (0 = none)
    std::int32_t twin = 0;   // Solve with a path, ProofGame: the twin and play of the item
    std::int32_t phase = 0;
    std::vector<std::int32_t> lengths;  // ProofGame: the lengths to search, increasing
    std::int32_t prefix = 0;            // Retro: the item's number in plan order
    std::int32_t chunk = 0;             // Retro: prefixes an item
    friend bool operator==(const WorkItem&, const WorkItem&) = default;
};

struct ChildCount {
    Path path;
    std::uint64_t nodes = 0;
    friend bool operator==(const ChildCount&, const ChildCount&) = default;
};

// The lines of one reply of a solve root item the worker searched before handing back the
// rest (a two-move path: root move, reply), per length of its play (SolveFragment::lines).
struct ChildFragment {
    Path path;
    std::vector<std::vector<PlayLine>> lines;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool timed_out = false;
    friend bool operator==(const ChildFragment&, const ChildFragment&) = default;
};

// A worker's answer: the item's count (Done; Noop items too), or the counts of the children
// it finished and the children it hands back (Split), or a whole solved problem (Solved:
// `outputs`, each twin's solutions as data, or `retro_whole` for a retro problem, or for bad
// input `error`; `solve_status`, `solutions`, `nodes` = positions searched: the master renders
// the text), or the solutions of one root move
// of a solve problem as data (Fragment: `lines` per length or `trees`, as SolveFragment has
// them, `timed_out`, `nodes`; a retro item's Fragment has its answer as data in `retro`), or why it
// could not search (Error); a cook-check item answers Solved too (`text`: the claim's result,
// one JSON line, a document of data; `solve_status`: its verdict; `solutions`: the solutions
// found). A solve root item may also end Split:
// `pending` lists all its replies (two-move paths) in order and `fragments` holds those searched. A proof-game item
// answers Proof: `proof_lines`, per length of the item, the solutions as the moves after its path (in the solver's
// order), or `timed_out`. `requests` is how many new items the worker asks for with it.
struct Result {
    enum class Status : std::uint8_t { Done = 1, Split = 2, Error = 3, Solved = 4, Fragment = 5, Proof = 6 };
    std::uint16_t protocol = kProtocolVersion;
    std::uint64_t item_id = 0;
    std::uint32_t problem = 0;
    Status status = Status::Done;
    std::uint64_t nodes = 0;
    std::vector<ChildCount> done;
    std::vector<Path> pending;
    std::string error;
    std::int32_t threads = 0;
    double seconds = 0;
    std::string text;                 // Solved, a cook-check item: the claim's result (one JSON line)
    std::vector<TwinOutput> outputs;  // Solved, a whole solve problem: its twins (SolveReport::outputs)
    // Solved, a whole retro problem: solve_whole_retro's fragments.
    std::vector<std::vector<std::vector<RetroFragment>>> retro_whole;
    std::string solve_status;  // Solved: SolveReport::status() or "bad-input" (`error` then says why)
    std::int32_t solutions = 0;
    RetroFragment retro;                         // Fragment of a retro item: its sequences or trees
    std::vector<std::vector<PlayLine>> lines;    // Fragment of a solve item: SolveFragment::lines
    std::vector<PlayTree> trees;                 // Fragment of a solve item: SolveFragment::trees
    bool timed_out = false;                      // Fragment, Proof: the time limit stopped it
    std::uint32_t requests = 0;                  // new items the worker asks for (its freed slots)
    std::vector<ChildFragment> fragments;        // Split of a solve root item: the replies searched
    std::vector<std::vector<Path>> proof_lines;  // Proof: per length, the moves after the path
    friend bool operator==(const Result&, const Result&) = default;
};

// Deepest node of a tree in a message (Popeye's stipulations stay far below).
inline constexpr int kMaxTreeDepth = 512;

// One node of a tree (solution.h) in depth-first order, as messages and the journal keep
// trees: its depth (the root 0) and its fields without the children.
struct FlatNode {
    int depth = 0;
    PlayNode::Kind kind = PlayNode::Kind::Key;
    Move move;
    bool goal = false;
    PlayNode::Then then = PlayNode::Then::None;
    friend bool operator==(const FlatNode&, const FlatNode&) = default;
};
// The nodes of the tree below `root` (itself first) in depth-first order.
std::vector<FlatNode> flatten_tree(const PlayNode& root);
// The inverse; throws ProtocolError when the depths do not nest (the first 0, each at most
// one deeper than the one before, none 0 after the first, none beyond kMaxTreeDepth) or a
// kind or `then` is out of range.
PlayNode unflatten_tree(const std::vector<FlatNode>& nodes);

// One step of a retractor's tree (retractor.h) in depth-first order, as messages and the
// journal keep trees of steps: its depth (the first retraction 0) and its data, without the
// texts (render_retractor_step writes them again) and the children.
struct FlatStep {
    int depth = 0;
    Color side = WHITE;
    UnMove retraction;
    std::vector<Move> forward;
    RetractorValue value = RetractorValue::Fail;
    bool timed_out = false;
    friend bool operator==(const FlatStep&, const FlatStep&) = default;
};
// The steps of the tree below `root` (itself first) in depth-first order.
std::vector<FlatStep> flatten_steps(const RetractorStep& root);
// The inverse (texts left empty); throws ProtocolError when the depths do not nest (as
// unflatten_tree), or a side or value is out of range.
RetractorStep unflatten_steps(const std::vector<FlatStep>& steps);

// Ready (empty payload) asks for one item; Work carries one; Result answers one and asks
// for Result::requests more; Stop ends a worker with nothing in flight.
enum class MsgType : std::uint16_t { Ready = 1, Work = 2, Result = 3, Stop = 4 };

struct Frame {
    MsgType type = MsgType::Ready;
    std::string payload;
};

// Size of the frame header: magic, version, type, payload length, payload checksum.
inline constexpr std::size_t kFrameHeaderSize = 24;

// FNV-1a 64-bit checksum.
std::uint64_t checksum(std::string_view bytes);

// A frame: header (little-endian) followed by the payload.
std::string encode_frame(MsgType type, std::string_view payload);
// Checks magic, version, type, length and checksum; throws ProtocolError naming the fault.
Frame decode_frame(std::string_view bytes);

// Boost.Serialization of the messages. The decoders throw ProtocolError on malformed
// input, trailing bytes or a protocol version other than kProtocolVersion.
std::string serialize(const WorkItem& item);
std::string serialize(const Result& result);
WorkItem deserialize_work_item(std::string_view bytes);
Result deserialize_result(std::string_view bytes);

}  // namespace rebirth::cluster
