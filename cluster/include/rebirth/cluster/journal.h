#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rebirth::cluster {

// Format version of the journal, written in its start lines; a journal of another version
// is refused. 2: path tokens carry ":o<n>" for repeated moves (protocol 3). 3: solve
// problems split into root items ("fragment" lines, "solved" lines with an empty path for
// the assembled problem). 4: a solve root item handed back as replies ("reply_split" lines).
// 5: proof-game items ("proof" lines). 6: a solve root item's "fragment" keeps its solutions
// as data ("lines", "trees": play_line_key / play_tree_key strings), not text. 7: a retro
// item's "fragment" keeps its answer as data ("sequences": retro_sequence_key strings;
// "choices", "keys", "unresolved": a retractor's counts and retractor_step_key strings), not
// text lines.
inline constexpr int kJournalVersion = 7;

// The state of one problem's search: the items still to search (in dispatch order) and
// the leaf counts found so far, summed per first move. Paths are path_key strings.
// Every update checks that it fits (a count for an item that is not pending is an error),
// so a journal that does not match the plan is refused instead of giving a wrong count.
class ProblemProgress {
  public:
    // Sets the items of a fresh search. Throws std::logic_error when already planned.
    void plan(const std::vector<std::string>& items);
    // Item `path` is searched: `nodes` leaves.
    void done(const std::string& path, std::uint64_t nodes);
    // Item `path` is replaced by finished children `done` and children `pending`, which
    // take its place in the dispatch order.
    void split(const std::string& path, const std::vector<std::pair<std::string, std::uint64_t>>& done,
               const std::vector<std::string>& pending);

    // Item `path` is replaced by `children` (in order): those in `searched` are done with
    // that many nodes, the others pending. Throws std::logic_error when a searched key is not
    // a child.
    void split_in_order(const std::string& path, const std::vector<std::string>& children,
                        const std::map<std::string, std::uint64_t>& searched);

    bool planned() const { return planned_; }
    bool finished() const { return planned_ && pending_.empty(); }
    bool is_pending(const std::string& path) const { return where_.count(path) != 0; }
    std::vector<std::string> pending() const { return {pending_.begin(), pending_.end()}; }
    // Sum of the counts found below first move `token` (0 when none).
    std::uint64_t first_move_total(const std::string& token) const;
    std::uint64_t total() const;

  private:
    void take(const std::string& path);
    bool planned_ = false;
    std::list<std::string> pending_;
    std::map<std::string, std::list<std::string>::iterator> where_;
    std::map<std::string, std::uint64_t> by_first_;
};

// A solved problem as the journal keeps it: enough to write its output and summary again.
struct SolveRecord {
    std::string text;    // the output file's bytes
    std::string status;  // SolveReport::status() or "bad-input"
    int solutions = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
    int threads = 0;
    friend bool operator==(const SolveRecord&, const SolveRecord&) = default;
};

// A root item of a split solve problem (or a retro item) as the journal keeps it.
struct FragmentRecord {
    std::vector<std::string> sequences;  // a retro item's sequences (retro_sequence_key)
    int key_choices = 0;                 // a retractor's item: its first choices that are keys,
    int unresolved_choices = 0;          // those not settled,
    std::vector<std::string> keys;       // and their trees (retractor_step_key)
    std::vector<std::string> unresolved;
    std::vector<std::vector<std::string>> lines;  // a solve item's lines per length (play_line_key)
    std::vector<std::string> trees;               // a solve item's trees (play_tree_key)
    bool timed_out = false;
    std::uint64_t nodes = 0;
    double seconds = 0;
    int threads = 0;
    friend bool operator==(const FragmentRecord&, const FragmentRecord&) = default;
};

// A proof-game item of a problem split at its frontier as the journal keeps it.
struct ProofRecord {
    // Per length of the item, its solutions as the moves after the item's path (path_key
    // strings: move tokens joined by spaces), in the solver's order.
    std::vector<std::vector<std::string>> lines;
    bool timed_out = false;
    std::uint64_t nodes = 0;
    double seconds = 0;
    int threads = 0;
    friend bool operator==(const ProofRecord&, const ProofRecord&) = default;
};

// What a journal holds: the fingerprint of the job it belongs to, each problem's progress,
// the solve results and the problems already written out. `valid_bytes` is the length of its complete lines
// (a line cut short by a kill is dropped; a bad line elsewhere is an error).
struct JournalState {
    std::string fingerprint;
    std::map<std::string, ProblemProgress> problems;
    std::map<std::string, SolveRecord> solved;
    std::map<std::string, std::map<std::string, FragmentRecord>> fragments;  // problem, item key
    // Solve root items handed back as replies: problem, root item key -> reply keys in order.
    std::map<std::string, std::map<std::string, std::vector<std::string>>> replies;
    std::map<std::string, std::map<std::string, ProofRecord>> proofs;  // problem, item key
    std::map<std::string, std::vector<std::string>> plans;             // each problem's planned items
    std::size_t valid_bytes = 0;
    int runs = 0;
};

// Reads a journal (a missing or empty file gives an empty state). Throws InputError
// naming the journal and line of a malformed line or of an update that does not fit.
JournalState read_journal(const std::string& path);
// Applies one journal line (without its newline) to `state`.
void apply_journal_line(JournalState& state, const std::string& line, const std::string& file, int line_no);

// Appends JSON lines to the journal. Each line is handed to the operating system at once,
// so a killed master loses nothing; the flushes to the disk (fdatasync) are grouped: one
// when `sync_interval` has passed since the last, and on sync() (the master calls it at
// sync_deadline() when no message came before, and at the end). A machine crash can thus
// lose the lines of the last interval at most; their items are searched again on --resume.
class JournalWriter {
  public:
    // Opens `path` for appending after cutting it to `keep_bytes` (drops a torn last line).
    JournalWriter(const std::string& path, std::size_t keep_bytes, double sync_interval = 0.02);
    // Syncs what is not on the disk yet.
    ~JournalWriter();
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;
    void append(const std::string& json_line);
    // Flushes the lines appended since the last flush to the disk (nothing when none).
    void sync();
    // When the lines not on the disk yet are due to be flushed (the last sync plus the
    // interval), or nothing when every line is on the disk.
    std::optional<std::chrono::steady_clock::time_point> sync_deadline() const;
    std::uint64_t syncs() const { return syncs_; }

  private:
    std::string path_;
    std::FILE* file_ = nullptr;
    double sync_interval_;
    bool dirty_ = false;
    std::uint64_t syncs_ = 0;
    std::chrono::steady_clock::time_point last_sync_;
};

// Journal line texts.
std::string journal_start(const std::string& fingerprint, long pid, const std::string& host, int ranks);
std::string journal_plan(const std::string& problem, const std::vector<std::string>& items);
std::string journal_done(const std::string& problem, const std::string& path, std::uint64_t nodes);
std::string journal_split(const std::string& problem, const std::string& path,
                          const std::vector<std::pair<std::string, std::uint64_t>>& done,
                          const std::vector<std::string>& pending);
std::string journal_finished(const std::string& problem, std::uint64_t nodes);
// A solve item `path` of `problem` is done with `record` (its whole output included); an
// empty `path` records the output assembled from the problem's fragments once all are in.
std::string journal_solved(const std::string& problem, const std::string& path, const SolveRecord& record);
// Root item `path` of split solve problem `problem` is done with `record`.
std::string journal_fragment(const std::string& problem, const std::string& path, const FragmentRecord& record);
// Proof-game item `path` of problem `problem` is done with `record`.
std::string journal_proof(const std::string& problem, const std::string& path, const ProofRecord& record);
// Root item `path` of split solve problem `problem` is replaced by its replies `children`
// (keys in reply order), of which those in `done` are searched.
std::string journal_reply_split(const std::string& problem, const std::string& path,
                                const std::vector<std::string>& children,
                                const std::map<std::string, FragmentRecord>& done);

}  // namespace rebirth::cluster
