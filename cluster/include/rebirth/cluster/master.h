#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rebirth/cluster/job.h"
#include "rebirth/cluster/journal.h"
#include "rebirth/cluster/messages.h"
#include "rebirth/cluster/search.h"

namespace rebirth::cluster {

struct MasterOptions {
    bool resume = false;
    int worker_ranks = 1;              // ranks that search (sizes the initial split)
    std::ostream* progress = nullptr;  // progress lines (stderr); null = quiet
    std::ostream* summary = nullptr;   // one JSON line per problem (stdout); null = none
    // Testing aid: stop taking results after this many (simulates a killed master).
    std::optional<int> stop_after_results;
};

// The master's bookkeeping, free of MPI: hands out work items, takes results, journals
// them and writes each problem's output when its last item is in. Perft results are
// merged per first move and printed in generation order, so the output does not depend on
// how the tree was split or in which order items finished; a solve problem's output is
// its worker's text, or for a problem split into root items the fragments assembled in
// plan order (assemble_solve), so it does not depend on the split either. A proof game split
// at its frontier is assembled the same way (assemble_proof_games); with MaxSolutions, once a
// play's first lines are known from its items in plan order, its later items are not handed
// out and the results of those in flight are ignored (settle_proof; a resumed run finds the
// same from the journal).
class Master {
  public:
    // Loads the problems, reads the journal with --resume (a missing journal starts a
    // fresh run), plans the problems not planned yet and writes the outputs of finished
    // ones. Throws InputError for a journal of another job or a journal that exists
    // without --resume.
    Master(Job job, MasterOptions options);
    ~Master();

    // The next item to search, or nothing when none is waiting right now.
    std::optional<WorkItem> next_item();
    // Takes a worker's result; throws ProtocolError for a result that matches no item
    // in flight.
    void on_result(const Result& result);
    // Every problem is written (or failed) and nothing is in flight.
    bool finished() const;
    bool stopped() const { return stopped_; }
    // Flushes the journal lines not on the disk yet (the main loop calls it when idle past
    // journal_sync_deadline(), and at the end).
    void sync_journal() { journal_->sync(); }
    // When the journal lines not on the disk yet are due there, or nothing when none is.
    std::optional<std::chrono::steady_clock::time_point> journal_sync_deadline() const {
        return journal_->sync_deadline();
    }
    // 0 when every problem succeeded, 2 when one failed on its input or (as with
    // `rebirth solve`) a solve problem is unsupported or its conditions/diagram are bad.
    int exit_code() const;
    const std::string& fingerprint() const { return fingerprint_; }
    // Items handed out so far, and the seconds from the first hand-out to the last result.
    std::uint64_t items_handed_out() const { return next_id_ - 1; }
    double dispatch_seconds() const;

  private:
    struct ProblemRun;
    struct Pending {
        std::uint32_t problem;
        std::string path;
        bool cancelled = false;  // in flight, no longer needed (settle_proof): its result is ignored
    };
    void plan_split(ProblemRun& run, const std::string& bytes);
    void plan_proof(ProblemRun& run, const std::vector<std::string>* journaled);
    void plan_retro_run(ProblemRun& run, const std::vector<std::string>* journaled);
    void assemble_retro_run(ProblemRun& run);
    void check_proof_record(const ProblemRun& run, const std::string& key, const ProofRecord& rec) const;
    void check_fragment(const ProblemRun& run, const std::string& key, const SolveFragment& f) const;
    void check_retro(const ProblemRun& run, const std::string& key, const RetroFragment& f) const;
    std::string whole_text(const ProblemRun& run, const std::string& key, const Result& result) const;
    void settle_proof(ProblemRun& run, int twin, int play);
    void plan_problem(ProblemRun& run);
    void add_replies(ProblemRun& run, const std::string& root, const std::vector<std::string>& children);
    void assemble(ProblemRun& run);
    void assemble_proof(ProblemRun& run);
    void maybe_finish(ProblemRun& run);
    void fail(ProblemRun& run, const std::string& message);
    void emit_summaries();
    void report_progress(bool force);

    Job job_;
    MasterOptions options_;
    std::string fingerprint_;
    std::vector<std::unique_ptr<ProblemRun>> runs_;
    std::unique_ptr<JournalWriter> journal_;
    std::deque<Pending> queue_;
    std::map<std::uint64_t, Pending> in_flight_;
    std::uint64_t next_id_ = 1;
    std::size_t summaries_done_ = 0;
    int results_taken_ = 0;
    bool stopped_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_report_;
    std::uint64_t items_done_ = 0;  // results received in this run (progress display)
    std::uint64_t nodes_done_ = 0;  // nodes those results searched
    std::optional<std::chrono::steady_clock::time_point> first_out_;
    std::chrono::steady_clock::time_point last_in_;
};

// The one item of a solve problem (all its twins).
inline constexpr const char* kSolveItem = "*";

// The text `rebirth perft --divide` prints for these first moves and totals.
std::string divide_text(const std::vector<std::pair<std::string, std::uint64_t>>& counts);

}  // namespace rebirth::cluster
