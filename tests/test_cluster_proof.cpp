// Proof games on the cluster (protocol 7, journal 5): proof-game items and results on the
// wire (round trips, truncated and corrupted frames, field checks), the proofgame job kind,
// a master that splits proof games at their frontier and writes what one process writes,
// stops and resumes from its journal (with the journal's frontier depth), leaves a MaxSolutions
// play's items after its first lines unsearched (in flight: their results ignored; resumed: found
// again from the journal), and refuses results and journal lines that do not fit.

#include <gtest/gtest.h>

#include "cluster_test_util.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rebirth/cluster/job.h"
#include "rebirth/cluster/journal.h"
#include "rebirth/cluster/master.h"
#include "rebirth/cluster/messages.h"
#include "rebirth/cluster/search.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/solve.h"

using namespace rebirth;
using namespace rebirth::cluster;
namespace fs = std::filesystem;

namespace {

const std::string kSource = REBIRTH_SOURCE_DIR;
const std::string kDuplex = kSource + "/cluster/tests/data/proof_duplex.inp";
const std::string kTwins = kSource + "/data/popeye/BEISPIEL_proof_005.inp";
const std::string kMaxSolutions = kSource + "/data/popeye/REGRESSIONS_4_55_to_4_57_026.inp";
// Six proof games with MaxSolutions: dia4 with 2 and with 5 (all) of its 5 solutions, an
// exact-dia2 duplex, three lengths, twins, an exact-dia2.
const std::string kMaxSolutionsSet = kSource + "/cluster/tests/data/proof_maxsolutions.inp";

using rebirth::test::read_text;

fs::path fresh_dir(const std::string& name) { return rebirth::test::fresh_dir("cluster-proof-" + name); }

// What `rebirth solve --regression --quiet` prints for problem `index` (0-based) of `file`.
std::string cli_solve_text(const std::string& file, std::size_t index) {
    std::vector<Problem> problems = parse_popeye_file(file);
    return format_header(problems.at(index)) + solve_problem_report(problems.at(index), 1, SolveLimits{}).text;
}

Move plain(Square from, Square to) {
    Move m;
    m.from = from;
    m.to = to;
    return m;
}

// A proof-game item: twin 1, play 0, after 1.Sg1-f3 Sg8-f6, lengths 4 and 6.
WorkItem proof_item() {
    WorkItem w;
    w.item_id = 11;
    w.problem = 2;
    w.file = "x.inp";
    w.file_hash = 99;
    w.kind = SearchKind::ProofGame;
    w.twin = 1;
    w.path = {PathMove{plain(SQ_G1, SQ_F3)}, PathMove{plain(SQ_G8, SQ_F6)}};
    w.lengths = {4, 6};
    w.threads = 2;
    w.max_seconds = 30;
    return w;
}

// Its answer: one line of length 4 (two moves after the path), none of length 6.
Result proof_result() {
    Result r;
    r.item_id = 11;
    r.problem = 2;
    r.status = Result::Status::Proof;
    r.nodes = 1234;
    r.seconds = 0.25;
    r.threads = 2;
    r.requests = 1;
    r.proof_lines = {{Path{PathMove{plain(SQ_B1, SQ_C3)}, PathMove{plain(SQ_B8, SQ_C6)}}}, {}};
    return r;
}

// A proofgame job of `patterns` (one thread, `per_rank` items per rank) writing into dir/out.
Job proof_job(const fs::path& dir, const std::string& patterns, int per_rank = 16) {
    Job job = parse_job(R"({"kind": "proofgame", "limits": {"threads": 1, "items_per_rank": )" +
                            std::to_string(per_rank) + R"(}, "problems": [)" + patterns + R"(], "output_dir": "out"})",
                        "job.json", kSource);
    job.output_dir = (dir / "out").string();
    job.journal = (dir / "out" / "journal.jsonl").string();
    return job;
}

// Runs `job` in this process (each item searched here) until done or stopped; returns the
// items handed out.
std::vector<WorkItem> run_job(const Job& job, MasterOptions options) {
    ProblemCache cache;
    Master m(job, options);
    std::vector<WorkItem> items;
    while (auto item = m.next_item()) {
        items.push_back(*item);
        m.on_result(run_item(*item, cache));
    }
    return items;
}

// The journal's lines of type `type`.
std::vector<nlohmann::json> journal_lines(const std::string& journal, const std::string& type) {
    std::vector<nlohmann::json> out;
    std::istringstream in(read_text(journal));
    std::string line;
    while (std::getline(in, line)) {
        nlohmann::json j = nlohmann::json::parse(line);
        if (j["t"] == type) out.push_back(j);
    }
    return out;
}

}  // namespace

TEST(ClusterProofMessages, RoundTripAndChecks) {
    const WorkItem w = proof_item();
    EXPECT_EQ(deserialize_work_item(decode_frame(encode_frame(MsgType::Work, serialize(w))).payload), w);
    WorkItem start = w;  // a start item: no path
    start.path.clear();
    start.lengths = {1, 3};
    EXPECT_EQ(deserialize_work_item(serialize(start)), start);
    start.lengths.clear();  // a start item below every length searches nothing
    EXPECT_EQ(deserialize_work_item(serialize(start)), start);

    WorkItem bad = w;
    bad.lengths = {6, 4};  // lengths increase
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad.lengths = {2, 4};  // longer than the path
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad.lengths = {4, kMaxProofLength + 1};
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad = w;
    bad.kind = SearchKind::Solve;  // lengths belong to proof-game items
    bad.path.clear();
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad.kind = SearchKind(5);
    bad.lengths.clear();
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);

    const Result r = proof_result();
    EXPECT_EQ(deserialize_result(decode_frame(encode_frame(MsgType::Result, serialize(r))).payload), r);
    Result timed = r;
    timed.proof_lines.clear();
    timed.timed_out = true;
    EXPECT_EQ(deserialize_result(serialize(timed)), timed);
    timed.proof_lines = r.proof_lines;  // a timed-out item has no lines
    EXPECT_THROW(deserialize_result(serialize(timed)), ProtocolError);
    Result wrong = r;
    wrong.status = Result::Status::Fragment;  // lines come with status proof only
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = r;
    wrong.proof_lines[0].push_back(Path{});  // a line has a move at least
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = r;
    wrong.status = Result::Status(7);
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
    wrong = r;
    wrong.status = Result::Status::Done;
    wrong.proof_lines.clear();
    wrong.timed_out = true;  // only fragments and proof items time out
    EXPECT_THROW(deserialize_result(serialize(wrong)), ProtocolError);
}

TEST(ClusterProofMessages, TruncatedAndCorruptedAreRefused) {
    for (const std::string& payload : {serialize(proof_item()), serialize(proof_result())}) {
        const bool work = payload == serialize(proof_item());
        const std::string frame = encode_frame(work ? MsgType::Work : MsgType::Result, payload);
        for (std::size_t n = 0; n < frame.size(); ++n)
            EXPECT_THROW(decode_frame(std::string_view(frame).substr(0, n)), ProtocolError) << "length " << n;
        for (std::size_t i = 0; i < frame.size(); ++i) {
            std::string flipped = frame;
            flipped[i] = char(flipped[i] ^ 0x40);
            EXPECT_THROW(decode_frame(flipped), ProtocolError) << "byte " << i;
        }
        for (std::size_t n = 0; n < payload.size(); ++n) {
            const std::string cut = payload.substr(0, n);
            if (work)
                EXPECT_THROW(deserialize_work_item(cut), ProtocolError) << "length " << n;
            else
                EXPECT_THROW(deserialize_result(cut), ProtocolError) << "length " << n;
        }
    }
    // A frame of protocol 6 (before proof-game items) is refused with its version (7 and
    // later: the current one).
    std::string old = encode_frame(MsgType::Work, serialize(proof_item()));
    old[4] = 6;
    try {
        decode_frame(old);
        FAIL();
    } catch (const ProtocolError& e) {
        EXPECT_NE(std::string(e.what()).find("protocol version 6, expected " + std::to_string(kProtocolVersion)),
                  std::string::npos)
            << e.what();
    }
}

TEST(ClusterProofJob, KindAcceptsProofGamesOnly) {
    const Job example = load_job(kSource + "/jobs/proofgame-example.json");
    EXPECT_EQ(example.kind, "proofgame");
    EXPECT_GE(example.problems.size(), 4u);
    for (const JobProblem& p : example.problems) {
        EXPECT_EQ(p.kind, "proofgame");
        EXPECT_TRUE(p.error.empty()) << p.error;
    }
    const InputError e = rebirth::cluster::test::job_error(
        "{\"kind\": \"proofgame\", \"output_dir\": \"o\",\n \"problems\": [\"data/popeye/BEISPIEL_proof_005.inp\",\n "
        "{\"files\": \"data/examples/circe_linss_mate2.inp\"}]}",
        kSource);
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.word(), "problems[1].files");
    EXPECT_NE(e.reason().find("circe_linss_mate2.inp:"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("is no proof game"), std::string::npos) << e.reason();
    // A twin that changes the stipulation to another play is refused too.
    const fs::path dir = fresh_dir("job");
    std::ofstream(dir / "twin.inp") << "beginproblem pieces white ke1 qd1 ra1 rh1 bc1 bf1 sb1 sg1 pa2 pb2 pc2 pd2 "
                                       "pe4 pf2 pg2 ph2 black ke8 qd8 ra8 rh8 bc8 bf8 sb8 sg8 pa7 pb7 pc7 pd7 pe7 "
                                       "pf7 pg7 ph7 stipulation dia0.5\ntwin stipulation h#1 endproblem\n";
    const InputError t = rebirth::cluster::test::job_error(
        R"({"kind": "proofgame", "output_dir": "o", "problems": [")" + (dir / "twin.inp").string() + "\"]}", kSource);
    EXPECT_NE(t.reason().find("twin stipulation 'h#1' is no proof game"), std::string::npos) << t.reason();
    // As kind solve the same problems are welcome.
    EXPECT_NO_THROW(
        parse_job(R"({"kind": "solve", "output_dir": "o", "problems": ["data/examples/*.inp"]})", "job.json", kSource));
}

TEST(ClusterProofMaster, SplitProofGamesWriteWhatOneProcessWrites) {
    const fs::path dir = fresh_dir("master");
    const Job job = proof_job(dir, "\"" + kDuplex + "\", \"" + kTwins + "\", \"" + kMaxSolutions + "\"");
    ASSERT_EQ(job.problems.size(), 4u);
    std::ostringstream summary;
    MasterOptions options;
    options.summary = &summary;
    const std::vector<WorkItem> items = run_job(job, options);
    std::map<std::uint32_t, int> proof_items, solve_items;
    for (const WorkItem& w : items) (w.kind == SearchKind::ProofGame ? proof_items : solve_items)[w.problem] += 1;
    EXPECT_GT(proof_items[0], 20);  // the duplex dia: 2 plays of 20 nodes and a start item each
    EXPECT_GT(proof_items[1], 2);   // the duplex a=>b: Black's play only
    EXPECT_GT(proof_items[2], 20);
    EXPECT_GT(proof_items[3], 2);  // MaxSolutions 5 splits too
    EXPECT_EQ(solve_items.size(), 0u);
    EXPECT_EQ(read_text(dir / "out" / "proof_duplex-1.out"), cli_solve_text(kDuplex, 0));
    EXPECT_EQ(read_text(dir / "out" / "proof_duplex-2.out"), cli_solve_text(kDuplex, 1));
    EXPECT_EQ(read_text(dir / "out" / "BEISPIEL_proof_005.out"), cli_solve_text(kTwins, 0));
    EXPECT_EQ(read_text(dir / "out" / "REGRESSIONS_4_55_to_4_57_026.out"), cli_solve_text(kMaxSolutions, 0));
    EXPECT_NE(summary.str().find(R"({"id":"proof_duplex-1","status":"cooked","solutions":8,)"), std::string::npos)
        << summary.str();
    EXPECT_NE(summary.str().find(R"({"id":"BEISPIEL_proof_005","status":"solved","solutions":2,)"), std::string::npos);
    // Each item journaled once, the assembled output once per problem.
    EXPECT_EQ(journal_lines(job.journal, "proof").size(),
              std::size_t(proof_items[0] + proof_items[1] + proof_items[2] + proof_items[3]));
    EXPECT_EQ(journal_lines(job.journal, "solved").size(), 4u);
}

// The number of items of each problem's plan in `journal`, by problem id.
std::map<std::string, std::size_t> planned_items(const std::string& journal) {
    std::map<std::string, std::size_t> out;
    for (const auto& j : journal_lines(journal, "plan")) out[j["problem"]] = j["items"].size();
    return out;
}

TEST(ClusterProofMaster, MaxSolutionsLeavesTheItemsAfterTheFirstLinesUnsearched) {
    const fs::path dir = fresh_dir("maxsolutions");
    const Job job = proof_job(dir, "\"" + kMaxSolutionsSet + "\"");
    ASSERT_EQ(job.problems.size(), 6u);
    std::ostringstream summary;
    MasterOptions options;
    options.summary = &summary;
    const std::vector<WorkItem> items = run_job(job, options);
    std::map<std::uint32_t, std::size_t> handed;
    for (const WorkItem& w : items) {
        EXPECT_EQ(w.kind, SearchKind::ProofGame);
        ++handed[w.problem];
    }
    const std::map<std::string, std::size_t> planned = planned_items(job.journal);
    for (std::uint32_t i = 0; i < job.problems.size(); ++i) {
        const std::string& id = job.problems[i].id;
        EXPECT_EQ(read_text(dir / "out" / (id + ".out")), cli_solve_text(kMaxSolutionsSet, i)) << id;
        EXPECT_GT(planned.at(id), 2u) << id;
        EXPECT_LE(handed[i], planned.at(id)) << id;
    }
    // One length searched by the frontier nodes (exact-dia2, nodes after one half-move): the
    // nodes after the one with the play's last line are not searched. With several (dia4) the
    // nodes' lines of the shorter lengths come first: every node is needed.
    for (std::uint32_t i : {2u, 5u}) EXPECT_LT(handed[i], planned.at(job.problems[i].id)) << i;
    EXPECT_EQ(handed[0], planned.at(job.problems[0].id));
    EXPECT_EQ(journal_lines(job.journal, "proof").size(), items.size());
    EXPECT_NE(summary.str().find(R"("status":"partial","solutions":2,)"), std::string::npos) << summary.str();
}

TEST(ClusterProofMaster, MaxSolutionsIgnoresTheResultsOfItemsNoLongerNeeded) {
    // Every item of exact-dia2 with MaxSolutions 2 handed out before any result is in: once
    // the first two lines are known the others' results are ignored (not journaled).
    const fs::path dir = fresh_dir("maxsolutions-in-flight");
    Job job = proof_job(dir, "\"" + kMaxSolutionsSet + "\"");
    job.problems.erase(job.problems.begin(), job.problems.begin() + 5);
    ProblemCache cache;
    Master m(job, MasterOptions{});
    std::vector<WorkItem> out;
    while (auto item = m.next_item()) out.push_back(*item);
    ASSERT_GT(out.size(), 10u);
    for (const WorkItem& w : out) m.on_result(run_item(w, cache));
    EXPECT_TRUE(m.finished());
    const std::size_t journaled = journal_lines(job.journal, "proof").size();
    EXPECT_LT(journaled * 2, out.size());
    EXPECT_EQ(read_text(dir / "out" / (job.problems[0].id + ".out")), cli_solve_text(kMaxSolutionsSet, 5));
    EXPECT_EQ(journal_lines(job.journal, "solved").size(), 1u);
}

TEST(ClusterProofMaster, MaxSolutionsResumedRunDoesNotSearchASettledPlayAgain) {
    // The duplex with MaxSolutions 3: its first play's items come first in the plan.
    const std::string duplex = "\"" + kMaxSolutionsSet + "\"";
    auto duplex_job = [&](const fs::path& dir) {
        Job job = proof_job(dir, duplex);
        job.problems.erase(job.problems.begin(), job.problems.begin() + 2);
        job.problems.resize(1);
        return job;
    };
    const fs::path whole_dir = fresh_dir("maxsolutions-duplex");
    const std::vector<WorkItem> whole = run_job(duplex_job(whole_dir), MasterOptions{});
    const auto first = std::count_if(whole.begin(), whole.end(), [](const WorkItem& w) { return w.phase == 0; });
    ASSERT_GT(first, 1);
    ASSERT_GT(whole.size(), std::size_t(first) + 2);
    ASSERT_TRUE(std::is_partitioned(whole.begin(), whole.end(), [](const WorkItem& w) { return w.phase == 0; }));

    // Stopped once the first play is known and one item of the second is in.
    const fs::path dir = fresh_dir("maxsolutions-resume");
    const Job job = duplex_job(dir);
    MasterOptions options;
    options.stop_after_results = int(first) + 1;
    run_job(job, options);
    EXPECT_EQ(journal_lines(job.journal, "proof").size(), std::size_t(first) + 1);
    MasterOptions resume;
    resume.resume = true;
    const std::vector<WorkItem> rest = run_job(job, resume);
    EXPECT_EQ(rest.size(), whole.size() - std::size_t(first) - 1);
    for (const WorkItem& w : rest) EXPECT_EQ(w.phase, 1);
    EXPECT_EQ(read_text(dir / "out" / (job.problems[0].id + ".out")), cli_solve_text(kMaxSolutionsSet, 2));
    std::map<std::string, int> journaled;
    for (const auto& j : journal_lines(job.journal, "proof")) journaled[j["path"]] += 1;
    EXPECT_EQ(journaled.size(), whole.size());
    for (const auto& [key, n] : journaled) EXPECT_EQ(n, 1) << key;
}

TEST(ClusterProofMaster, ResumedRunKeepsTheJournaledDepth) {
    const fs::path dir = fresh_dir("resume");
    Job job = proof_job(dir, "\"" + kTwins + "\"", 1);  // depth 1: 20 nodes per play
    MasterOptions options;
    options.stop_after_results = 9;
    run_job(job, options);
    const auto plan = journal_lines(job.journal, "plan");
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0]["items"][0], "0.0/k1");
    const std::size_t planned = plan[0]["items"].size();
    EXPECT_EQ(journal_lines(job.journal, "proof").size(), 9u);

    // Resumed with many more ranks, whose fresh plan would go deeper: the journal's depth holds.
    MasterOptions resume;
    resume.resume = true;
    resume.worker_ranks = 300;
    const std::vector<WorkItem> rest = run_job(job, resume);
    EXPECT_EQ(rest.size(), planned - 9);
    for (const WorkItem& w : rest) EXPECT_LE(w.path.size(), 1u);
    EXPECT_EQ(read_text(dir / "out" / "BEISPIEL_proof_005.out"), cli_solve_text(kTwins, 0));
    std::map<std::string, int> journaled;
    for (const auto& j : journal_lines(job.journal, "proof")) journaled[j["path"]] += 1;
    EXPECT_EQ(journaled.size(), planned);
    for (const auto& [key, n] : journaled) EXPECT_EQ(n, 1) << key;

    // A fresh run on 300 ranks plans the same problem deeper.
    const fs::path deep = fresh_dir("resume-deep");
    Job again = proof_job(deep, "\"" + kTwins + "\"", 1);
    MasterOptions many;
    many.worker_ranks = 300;
    many.stop_after_results = 1;
    run_job(again, many);
    EXPECT_EQ(journal_lines(again.journal, "plan")[0]["items"][0], "0.0/k2");
}

TEST(ClusterProofMaster, JournalThatDoesNotFitIsRefused) {
    const fs::path dir = fresh_dir("journal");
    const Job job = proof_job(dir, "\"" + kTwins + "\"", 1);
    MasterOptions options;
    options.stop_after_results = 5;
    run_job(job, options);
    const std::string text = read_text(job.journal);
    MasterOptions resume;
    resume.resume = true;
    auto refused = [&](const std::string& journal, const std::string& why) {
        std::ofstream(job.journal, std::ios::binary | std::ios::trunc) << journal;
        try {
            Master m(job, resume);
            ADD_FAILURE() << "accepted: " << why;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    };
    // Another depth in the start item's key: the plan it names has other items.
    std::string deeper = text;
    for (std::size_t at; (at = deeper.find("/k1\"")) != std::string::npos;) deeper.replace(at, 4, "/k2\"");
    refused(deeper, "does not fit the problem's proof-game split");
    // A proof line whose item searched another number of lengths (the start item: none).
    const std::size_t line = text.find("\"lines\":[],");
    ASSERT_NE(line, std::string::npos);
    std::string lengths = text;
    lengths.insert(line + 9, "[]");
    refused(lengths, "proof-game items do not fit");
    // A move token that names no move (a) 1.Sg1-f3 f7-f5 ...: the fifth item's line).
    std::string token = text;
    const std::size_t move = token.find("[\"f7f5 ");
    ASSERT_NE(move, std::string::npos) << text;
    token.replace(move + 2, 4, "z9z9");
    refused(token, "proof-game items do not fit");
    // Put back, the journal resumes.
    std::ofstream(job.journal, std::ios::binary | std::ios::trunc) << text;
    run_job(job, resume);
    EXPECT_EQ(read_text(dir / "out" / "BEISPIEL_proof_005.out"), cli_solve_text(kTwins, 0));
}

TEST(ClusterProofMaster, ResultsThatDoNotFitAreProtocolErrors) {
    // A master that has handed out a frontier node's item, its correct result, and what
    // `change` makes of that result (a fresh master each time: a refused result ends a run).
    int runs = 0;
    auto refused = [&](auto change) {
        const fs::path dir = fresh_dir("results-" + std::to_string(runs++));
        ProblemCache cache;
        Master m(proof_job(dir, "\"" + kTwins + "\"", 1), MasterOptions{});
        std::optional<WorkItem> node;
        while (auto item = m.next_item()) {
            if (!item->path.empty()) {
                node = item;
                break;
            }
            m.on_result(run_item(*item, cache));
        }
        ASSERT_TRUE(node);
        ASSERT_EQ(node->kind, SearchKind::ProofGame);
        Result r = run_item(*node, cache);
        ASSERT_EQ(r.status, Result::Status::Proof) << r.error;
        ASSERT_EQ(r.proof_lines.size(), node->lengths.size());
        change(r, *node);
        EXPECT_THROW(m.on_result(r), ProtocolError);
    };
    refused([](Result& r, const WorkItem&) {  // a perft count for a proof item
        r.status = Result::Status::Done;
        r.proof_lines.clear();
    });
    refused([](Result& r, const WorkItem&) { r.proof_lines.pop_back(); });  // a length missing
    refused([](Result& r, const WorkItem& w) {                              // a line as long as the whole game
        r.proof_lines[0].push_back(Path(std::size_t(w.lengths[0]), PathMove{plain(SQ_B1, SQ_C3)}));
    });
    refused([](Result& r, const WorkItem&) {  // lines with a timed-out item
        r.timed_out = true;
        r.proof_lines[0].push_back(Path{PathMove{plain(SQ_B1, SQ_C3)}});
    });
    // The same checks pass the unchanged result.
    const fs::path dir = fresh_dir("results-good");
    ProblemCache cache;
    Master m(proof_job(dir, "\"" + kTwins + "\"", 1), MasterOptions{});
    while (auto item = m.next_item()) EXPECT_NO_THROW(m.on_result(run_item(*item, cache)));
    EXPECT_TRUE(m.finished());
}

TEST(ClusterProofWorker, ItemsThatDoNotFitTheProblemAreErrors) {
    ProblemCache cache;
    WorkItem w;
    w.kind = SearchKind::ProofGame;
    w.file = kTwins;
    w.file_hash = checksum(read_file_bytes(kTwins));
    w.threads = 1;
    w.lengths = {14, 16};  // dia 7: lengths 2, 4, ..., 14
    Result r = run_item(w, cache);
    EXPECT_EQ(r.status, Result::Status::Error);
    EXPECT_NE(r.error.find("length 16"), std::string::npos) << r.error;
    w.lengths = {14};
    w.twin = 2;  // twins a) and b)
    EXPECT_EQ(run_item(w, cache).status, Result::Status::Error);
    w.twin = 0;
    w.path = {PathMove{plain(SQ_E2, SQ_E5)}};
    r = run_item(w, cache);
    EXPECT_EQ(r.status, Result::Status::Error);
    EXPECT_NE(r.error.find("not legal"), std::string::npos) << r.error;
    w.path = {PathMove{plain(SQ_G1, SQ_F3)}};
    r = run_item(w, cache);
    ASSERT_EQ(r.status, Result::Status::Proof) << r.error;
    ASSERT_EQ(r.proof_lines.size(), 1u);
    ASSERT_EQ(r.proof_lines[0].size(), 1u);  // a) 1.Sg1-f3 f7-f5 ...
    EXPECT_EQ(r.proof_lines[0][0].size(), 13u);
    w.file_hash ^= 1;
    EXPECT_EQ(run_item(w, cache).status, Result::Status::Error);
}
