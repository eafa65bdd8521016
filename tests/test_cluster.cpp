#include <gtest/gtest.h>

#include "cluster_test_util.h"
#include "test_util.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "rebirth/cluster/job.h"
#include "rebirth/cluster/journal.h"
#include "rebirth/cluster/master.h"
#include "rebirth/cluster/messages.h"
#include "rebirth/cluster/search.h"
#include "rebirth/error.h"
#include "rebirth/perft.h"

using namespace rebirth;
using namespace rebirth::cluster;
namespace fs = std::filesystem;

namespace {

const std::string kSource = REBIRTH_SOURCE_DIR;

// A new empty directory for one test.
fs::path fresh_dir(const std::string& name) { return rebirth::test::fresh_dir("cluster-" + name); }

// The job error of `text`, paths taken from the source tree.
InputError job_error(const std::string& text) { return rebirth::cluster::test::job_error(text, kSource); }

using rebirth::test::read_text;
const std::string kKiwipete = kSource + "/cluster/tests/data/kiwipete.inp";
const std::string kKiwipeteMars = kSource + "/cluster/tests/data/kiwipete_marscirce.inp";

WorkItem sample_item() {
    WorkItem w;
    w.item_id = 42;
    w.problem = 3;
    w.file = "some/file.inp";
    w.problem_index = 2;
    w.file_hash = 0x1234567890abcdefULL;
    Move a;
    a.from = SQ_E2;
    a.to = SQ_E4;
    Move b;
    b.from = SQ_D7;
    b.to = SQ_D8;
    b.kind = MoveKind::Promotion;
    b.promotion = QUEEN;
    b.rebirth = SQ_A8;
    b.rebirth_walk = ROOK;
    b.extra = SQ_H1;
    b.spare = 7;
    w.path = {{a, 0}, {b, 2}};
    w.depth = 5;
    w.budget_seconds = 2.5;
    w.threads = 4;
    return w;
}

}  // namespace

TEST(ClusterJob, ParsesGlobsDefaultsAndOverrides) {
    Job job = parse_job(R"({
      "kind": "perft", "depth": 3, "limits": {"threads": 2},
      "problems": ["data/examples/*.inp",
                   {"files": "cluster/tests/data/kiwipete.inp", "depth": 5, "limits": {"item_seconds": 0.5}}],
      "output_dir": "out"})",
                        "job.json", kSource);
    ASSERT_EQ(job.problems.size(), 3u);
    EXPECT_EQ(job.problems[0].id, "antimars_lindenthal_h2");
    EXPECT_EQ(job.problems[1].id, "circe_linss_mate2");
    EXPECT_EQ(job.problems[0].depth, 3);
    EXPECT_EQ(job.problems[0].limits.threads, 2);
    EXPECT_EQ(job.problems[2].id, "kiwipete");
    EXPECT_EQ(job.problems[2].depth, 5);
    EXPECT_EQ(job.problems[2].limits.threads, 2);
    EXPECT_DOUBLE_EQ(job.problems[2].limits.item_seconds, 0.5);
    EXPECT_EQ(job.output_dir, kSource + "/out");
    EXPECT_EQ(job.journal, kSource + "/out/journal.jsonl");
}

TEST(ClusterJob, ErrorsNameLineAndKey) {
    InputError e = job_error("{\n  \"kind\": \"perft\",\n  \"depht\": 3\n}");
    EXPECT_EQ(e.file(), "job.json");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.word(), "depht");
    EXPECT_NE(e.reason().find("unknown key"), std::string::npos);

    e = job_error(
        "{\"kind\": \"perft\", \"depth\": 2, \"output_dir\": \"o\",\n\"limits\": {\n \"threads\": 1,\n \"budget\": "
        "3}}");
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.word(), "limits.budget");

    e = job_error(
        "{\"kind\": \"perft\", \"depth\": 1, \"output_dir\": \"o\",\n \"problems\": [\"data/examples/*.inp\",\n "
        "{\"files\": \"nothing/*.inp\"}]}");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.word(), "problems[1].files");
    EXPECT_NE(e.reason().find("matches no file"), std::string::npos);

    e = job_error("{\"kind\": \"perft\", \"output_dir\": \"o\", \"problems\": [\"data/examples/*.inp\"]}");
    EXPECT_EQ(e.word(), "problems[0]");
    EXPECT_NE(e.reason().find("no depth"), std::string::npos);

    e = job_error("{\"kind\": \"perft\",\n \"depth\": \"4\"}");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.word(), "depth");

    e = job_error("{\"kind\": \"mate\"}");
    EXPECT_EQ(e.word(), "kind");

    e = job_error("{\n\"kind\": \"perft\",\n\"depth\": 3,,\n}");
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.reason().find("not valid JSON"), std::string::npos);

    e = job_error(
        "{\"kind\": \"perft\", \"depth\": 2, \"output_dir\": \"o\", \"problems\": [\"data/examples/*.inp\",\n"
        " \"data/examples/circe_*.inp\"]}");
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.reason().find("repeats"), std::string::npos);
}

// A number beyond a double's range (found by the job fuzzer): an InputError naming the
// number and its line, not nlohmann's out_of_range.
TEST(ClusterJob, NumberOutOfRangeIsAnInputError) {
    const InputError e = job_error(read_text(kSource + "/cluster/tests/fuzz/job/regressions/number_out_of_range.json"));
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.word(), "51e3080");
    EXPECT_EQ(e.reason(), "not valid JSON: number out of range");
}

TEST(ClusterJob, ShippedExampleParses) {
    Job job = load_job(kSource + "/jobs/perft-example.json");
    EXPECT_EQ(job.kind, "perft");
    EXPECT_EQ(job.problems.size(), 3u);
}

TEST(ClusterMessages, RoundTrip) {
    WorkItem w = sample_item();
    Frame f = decode_frame(encode_frame(MsgType::Work, serialize(w)));
    EXPECT_EQ(f.type, MsgType::Work);
    EXPECT_EQ(deserialize_work_item(f.payload), w);

    Result r;
    r.item_id = 9;
    r.problem = 1;
    r.status = Result::Status::Split;
    r.done = {{w.path, 123456789012ULL}};
    r.pending = {w.path, {}};
    r.threads = 8;
    r.seconds = 1.5;
    r.error = "none";
    EXPECT_EQ(deserialize_result(decode_frame(encode_frame(MsgType::Result, serialize(r))).payload), r);

    Frame empty = decode_frame(encode_frame(MsgType::Stop, ""));
    EXPECT_EQ(empty.type, MsgType::Stop);
    EXPECT_TRUE(empty.payload.empty());
}

// A retro item (kind Retro: twin, side, prefix length, item number and chunk) survives the
// wire; one with a move path, no chunk or a negative item number, and an item of another
// kind with a retro chunk, are refused. A retro job refuses a problem that is no retro one,
// naming its file and line, and accepts the shipped retro example.
TEST(ClusterMessages, RetroItems) {
    WorkItem w = sample_item();
    w.kind = SearchKind::Retro;
    w.path.clear();
    w.depth = 2;
    w.twin = 1;
    w.phase = 1;
    w.prefix = 17;
    w.chunk = 40;
    EXPECT_EQ(deserialize_work_item(serialize(w)), w);
    WorkItem bad = w;
    bad.path = sample_item().path;
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad = w;
    bad.chunk = 0;
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad = w;
    bad.prefix = -1;
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);
    bad = sample_item();
    bad.chunk = 3;
    EXPECT_THROW(deserialize_work_item(serialize(bad)), ProtocolError);

    const InputError e = job_error(
        "{\"kind\": \"retro\", \"output_dir\": \"o\",\n \"problems\": [\"data/examples/circe_linss_mate2.inp\"]}");
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.reason().find("circe_linss_mate2.inp"), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find("is no retro stipulation (lastmoves N, -n & #1) (kind retro)"), std::string::npos)
        << e.what();
    const Job example = load_job(kSource + "/jobs/retro-example.json");
    EXPECT_EQ(example.kind, "retro");
    EXPECT_GE(example.problems.size(), 6u);
}

TEST(ClusterMessages, TruncatedFramesAreRefused) {
    std::string frame = encode_frame(MsgType::Work, serialize(sample_item()));
    for (std::size_t n = 0; n < frame.size(); ++n)
        EXPECT_THROW(decode_frame(std::string_view(frame).substr(0, n)), ProtocolError) << "length " << n;
    EXPECT_THROW(decode_frame(frame + "x"), ProtocolError);
}

TEST(ClusterMessages, CorruptedFramesAreRefused) {
    std::string frame = encode_frame(MsgType::Work, serialize(sample_item()));
    for (std::size_t i = 0; i < frame.size(); ++i) {
        std::string bad = frame;
        bad[i] = char(bad[i] ^ 0x20);
        EXPECT_THROW(decode_frame(bad), ProtocolError) << "byte " << i;
    }
    std::string other_version = frame;
    other_version[4] = char(kProtocolVersion + 1);
    try {
        decode_frame(other_version);
        FAIL();
    } catch (const ProtocolError& e) {
        EXPECT_NE(std::string(e.what()).find("protocol version " + std::to_string(kProtocolVersion + 1)),
                  std::string::npos);
    }
}

TEST(ClusterMessages, MalformedPayloadsAreRefused) {
    WorkItem w = sample_item();
    w.protocol = kProtocolVersion + 1;
    EXPECT_THROW(deserialize_work_item(serialize(w)), ProtocolError);
    std::string bytes = serialize(sample_item());
    for (std::size_t n = 0; n < bytes.size(); ++n)
        EXPECT_THROW(deserialize_work_item(bytes.substr(0, n)), ProtocolError) << "length " << n;
    EXPECT_THROW(deserialize_work_item(bytes + "\x01"), ProtocolError);
    EXPECT_THROW(deserialize_result(std::string(64, '\xff')), ProtocolError);
    EXPECT_THROW(deserialize_result(bytes), ProtocolError);
}

namespace {

// The ProtocolError message of decoding the frame fuzzer's regression input `name`
// (cluster/tests/fuzz/frame/regressions) as a work item or, with `result`, as a result.
std::string frame_regression_error(const std::string& name, bool result = false) {
    const std::string bytes = read_text(kSource + "/cluster/tests/fuzz/frame/regressions/" + name);
    EXPECT_FALSE(bytes.empty()) << name;
    try {
        if (result)
            deserialize_result(bytes);
        else
            deserialize_work_item(bytes);
    } catch (const ProtocolError& e) {
        return e.what();
    }
    ADD_FAILURE() << name << " was accepted";
    return "";
}

}  // namespace

// A string length of 2 GiB in a 192-byte work item: refused before Boost allocates it.
TEST(ClusterMessages, HugeStringLengthIsRefusedBeforeAllocating) {
    EXPECT_EQ(frame_regression_error("work_item_string_2gib.bin"),
              "malformed work item: string of 2147483648 announced with only 125 bytes left");
}

// A path of 2^40 moves in a work item: refused before the vector is reserved.
TEST(ClusterMessages, HugeCollectionCountIsRefusedBeforeAllocating) {
    EXPECT_EQ(frame_regression_error("work_item_path_count_2e40.bin"),
              "malformed work item: collection of 1099511627776 announced with only 64 bytes left");
}

// A bool byte of 2 (Result::timed_out) is refused instead of being loaded into a bool.
TEST(ClusterMessages, BoolByteOtherThanZeroOrOneIsRefused) {
    EXPECT_EQ(frame_regression_error("result_bool_2.bin", true), "malformed result: bool of value 2");
}

// The archive signature without the library version byte after it.
TEST(ClusterMessages, ArchiveHeaderCutShortIsRefused) {
    EXPECT_EQ(frame_regression_error("archive_signature_only.bin"), "malformed work item: archive header cut short");
    EXPECT_EQ(frame_regression_error("archive_signature_only.bin", true), "malformed result: archive header cut short");
}

TEST(ClusterSearch, MoveTokensRoundTrip) {
    for (const PathMove& m : sample_item().path) EXPECT_EQ(parse_move_token(move_token(m)), m);
    EXPECT_EQ(move_token(sample_item().path[0]), "e2e4");
    EXPECT_EQ(move_token(sample_item().path[1]), "d7d8:k1:p2:ra8:w3:xh1:s7:o2");
    Path p = sample_item().path;
    EXPECT_EQ(parse_path_key(path_key(p)), p);
    EXPECT_THROW(parse_move_token("e2"), std::invalid_argument);
    EXPECT_THROW(parse_move_token("e2e4:q1"), std::invalid_argument);
    EXPECT_THROW(parse_move_token("e2e4:k9"), std::invalid_argument);
    EXPECT_THROW(parse_move_token("i2e4"), std::invalid_argument);
    EXPECT_THROW(parse_move_token("e1g1:k3:o0"), std::invalid_argument);  // not canonical: "e1g1:k3"
    EXPECT_THROW(parse_move_token("e1g1:o1:k3"), std::invalid_argument);  // fields out of order
    EXPECT_THROW(parse_move_token("e1g1:k3:o256"), std::invalid_argument);
}

// Kiwipete under MarsCirce lists each castling twice (as Popeye does): the two copies are
// distinct items, keys and messages, and the split still covers the tree exactly.
TEST(ClusterSearch, RepeatedMovesAreDistinctItems) {
    LoadedProblem lp = load_problem(kKiwipeteMars, 1);
    std::vector<PathMove> moves = legal_path_moves(lp.root);
    PathMove castling = parse_move_token("e1g1:k3");
    PathMove second = parse_move_token("e1g1:k3:o1");
    EXPECT_EQ(second.move, castling.move);
    EXPECT_EQ(second.occurrence, 1);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), castling), 1);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), second), 1);
    EXPECT_EQ(std::count_if(moves.begin(), moves.end(), [](const PathMove& m) { return m.occurrence > 0; }), 2);

    std::vector<std::pair<Path, std::string>> roots = root_moves(lp.root);
    std::vector<std::string> tokens;
    for (const auto& [path, name] : roots) tokens.push_back(path_key(path));
    EXPECT_EQ(std::set<std::string>(tokens.begin(), tokens.end()).size(), tokens.size());
    EXPECT_EQ(std::count_if(roots.begin(), roots.end(), [](const auto& r) { return r.second == "0-0"; }), 2);

    std::vector<Path> items = initial_split(lp.root, 3, 500, 1);
    std::vector<std::string> keys;
    for (const Path& p : items) {
        keys.push_back(path_key(p));
        EXPECT_EQ(parse_path_key(keys.back()), p);
    }
    EXPECT_GT(std::count_if(keys.begin(), keys.end(),
                            [](const std::string& k) { return k.find(":o1") != std::string::npos; }),
              0);
    ProblemProgress progress;
    progress.plan(keys);  // throws on a repeated key

    WorkItem w;
    w.file = kKiwipeteMars;
    w.file_hash = lp.file_hash;
    w.path = {second};
    w.depth = 2;
    w.threads = 1;
    EXPECT_EQ(deserialize_work_item(decode_frame(encode_frame(MsgType::Work, serialize(w))).payload), w);

    ProblemCache cache;
    std::uint64_t sum = 0;
    for (const Path& p : items) {
        WorkItem item = w;
        item.path = p;
        item.depth = 3 - int(p.size());
        Result r = run_item(item, cache);
        ASSERT_EQ(r.status, Result::Status::Done) << r.error;
        progress.done(path_key(p), r.nodes);
        sum += r.nodes;
    }
    EXPECT_TRUE(progress.finished());
    EXPECT_EQ(sum, perft(lp.root, 3));
    std::vector<std::pair<std::string, std::uint64_t>> counts;
    for (std::size_t i = 0; i < roots.size(); ++i)
        counts.push_back({roots[i].second, progress.first_move_total(tokens[i])});
    EXPECT_EQ(divide_text(counts), divide_text(perft_divide(lp.root, 3, 1)));

    WorkItem root = w;  // a budget split hands back both copies as children of their own
    root.path = {};
    root.depth = 5;
    root.budget_seconds = 1e-9;
    Result split = run_item(root, cache);
    ASSERT_EQ(split.status, Result::Status::Split) << split.error;
    std::vector<std::string> pending;
    for (const Path& p : split.pending) pending.push_back(path_key(p));
    EXPECT_EQ(split.done.size() + pending.size(), moves.size());
    EXPECT_EQ(std::count(pending.begin(), pending.end(), "e1g1:k3:o1"), 1);
    EXPECT_EQ(std::count(pending.begin(), pending.end(), "e1c1:k3:o1"), 1);
    EXPECT_EQ(deserialize_result(serialize(split)), split);

    w.path = {parse_move_token("e1g1:k3:o2")};  // a third copy does not exist
    Result r = run_item(w, cache);
    EXPECT_EQ(r.status, Result::Status::Error);
    EXPECT_NE(r.error.find("holds it 2 time(s)"), std::string::npos) << r.error;
}

TEST(ClusterSearch, SplitCoversTheTree) {
    LoadedProblem lp = load_problem(kKiwipete, 1);
    std::vector<Path> items = initial_split(lp.root, 4, 200, 1);
    EXPECT_GE(items.size(), 200u);
    ProblemCache cache;
    std::uint64_t sum = 0;
    for (const Path& p : items) {
        WorkItem w;
        w.file = kKiwipete;
        w.file_hash = lp.file_hash;
        w.path = p;
        w.depth = 4 - int(p.size());
        w.threads = 1;
        Result r = run_item(w, cache);
        ASSERT_EQ(r.status, Result::Status::Done) << r.error;
        sum += r.nodes;
    }
    EXPECT_EQ(sum, 4085603u);
}

TEST(ClusterSearch, BudgetHandsBackChildren) {
    LoadedProblem lp = load_problem(kKiwipete, 1);
    ProblemCache cache;
    WorkItem w;
    w.file = kKiwipete;
    w.file_hash = lp.file_hash;
    w.depth = 5;
    w.budget_seconds = 1e-9;
    w.threads = 1;
    Result r = run_item(w, cache);
    ASSERT_EQ(r.status, Result::Status::Split) << r.error;
    EXPECT_EQ(r.done.size(), 1u);
    EXPECT_EQ(r.pending.size(), 47u);

    w.file_hash ^= 1;
    EXPECT_EQ(run_item(w, cache).status, Result::Status::Error);
    w.file_hash ^= 1;
    w.path = {parse_move_token("e1e2")};  // not legal: the king's own bishop stands there
    r = run_item(w, cache);
    EXPECT_EQ(r.status, Result::Status::Error);
    EXPECT_NE(r.error.find("not legal"), std::string::npos);
}

TEST(ClusterJournal, ProgressChecksEveryUpdate) {
    ProblemProgress p;
    p.plan({"e2e4", "d2d4", "g1f3"});
    p.split("d2d4", {{"d2d4 d7d5", 10}}, {"d2d4 g8f6", "d2d4 e7e6"});
    EXPECT_EQ(p.pending(), (std::vector<std::string>{"e2e4", "d2d4 g8f6", "d2d4 e7e6", "g1f3"}));
    EXPECT_THROW(p.done("d2d4", 1), std::logic_error);
    EXPECT_THROW(p.split("e2e4", {{"d2d4 c7c5", 1}}, {}), std::logic_error);
    p.done("d2d4 g8f6", 5);
    p.done("d2d4 e7e6", 6);
    p.done("e2e4", 100);
    EXPECT_FALSE(p.finished());
    p.done("g1f3", 1);
    EXPECT_TRUE(p.finished());
    EXPECT_EQ(p.first_move_total("d2d4"), 21u);
    EXPECT_EQ(p.total(), 122u);
}

TEST(ClusterJournal, TornLastLineIsDroppedBadLineIsAnError) {
    fs::path dir = fresh_dir("journal");
    std::string good = journal_start("abc", 1, "h", 2) + "\n" + journal_plan("p", {"e2e4", "d2d4"}) + "\n" +
                       journal_done("p", "e2e4", 7) + "\n";
    { std::ofstream(dir / "j.jsonl", std::ios::binary) << good << R"({"t":"done","problem":"p","pa)"; }
    JournalState s = read_journal((dir / "j.jsonl").string());
    EXPECT_EQ(s.fingerprint, "abc");
    EXPECT_EQ(s.valid_bytes, good.size());
    EXPECT_EQ(s.problems.at("p").pending(), std::vector<std::string>{"d2d4"});
    {
        JournalWriter w((dir / "j.jsonl").string(), s.valid_bytes);
        w.append(journal_done("p", "d2d4", 3));
    }
    s = read_journal((dir / "j.jsonl").string());
    EXPECT_TRUE(s.problems.at("p").finished());
    EXPECT_EQ(s.problems.at("p").total(), 10u);

    { std::ofstream(dir / "bad.jsonl", std::ios::binary) << good << journal_done("p", "e2e4", 7) << "\n"; }
    try {
        read_journal((dir / "bad.jsonl").string());
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 4);
    }
    EXPECT_TRUE(read_journal((dir / "missing.jsonl").string()).fingerprint.empty());
}

// The master flushes the journal when its lines fall due, not at every idle moment
// (cluster/src/main.cpp): lines written are due one sync interval after the last flush,
// a writer with everything on the disk has no deadline, and a line written a whole
// interval after the last flush is flushed at once.
TEST(ClusterJournal, LinesFallDueOneIntervalAfterTheLastFlush) {
    fs::path dir = fresh_dir("journal-deadline");
    JournalWriter w((dir / "j.jsonl").string(), 0, 3600.0);
    EXPECT_FALSE(w.sync_deadline());
    const auto before = std::chrono::steady_clock::now();
    w.append(journal_start("abc", 1, "h", 2));
    ASSERT_TRUE(w.sync_deadline());
    EXPECT_GT(*w.sync_deadline(), before + std::chrono::minutes(59));
    EXPECT_EQ(w.syncs(), 0u);
    w.sync();
    EXPECT_EQ(w.syncs(), 1u);
    EXPECT_FALSE(w.sync_deadline());
    w.sync();
    EXPECT_EQ(w.syncs(), 1u);

    JournalWriter quick((dir / "q.jsonl").string(), 0, 0.0);
    quick.append(journal_start("abc", 1, "h", 2));
    EXPECT_EQ(quick.syncs(), 1u);
    EXPECT_FALSE(quick.sync_deadline());
}

TEST(ClusterJournal, OlderFormatIsRefused) {
    fs::path dir = fresh_dir("journal-v1");
    {
        std::ofstream(dir / "j.jsonl", std::ios::binary)
            << R"({"t":"start","version":1,"fingerprint":"abc","pid":1,"host":"h","ranks":2})"
            << "\n"
            << journal_plan("p", {"e1g1:k3"}) << "\n";
    }
    try {
        read_journal((dir / "j.jsonl").string());
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 1);
        EXPECT_NE(std::string(e.what()).find("journal of format version 1, this rebirth-cluster reads version " +
                                             std::to_string(kJournalVersion)),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("remove the journal"), std::string::npos) << e.what();
    }
}

// A perft job of one problem (one thread, up to 100 items per rank) writing into dir/out.
static Job perft_job(const fs::path& dir, const std::string& id, const std::string& file, int depth) {
    Job job;
    job.source = "test";
    job.kind = "perft";
    job.output_dir = (dir / "out").string();
    job.journal = (dir / "out" / "journal.jsonl").string();
    JobProblem p;
    p.id = id;
    p.file = file;
    p.depth = depth;
    p.limits.threads = 1;
    p.limits.items_per_rank = 100;
    job.problems.push_back(p);
    return job;
}

TEST(ClusterMaster, StoppedRunResumesToTheSameOutput) {
    fs::path dir = fresh_dir("master");
    Job job = perft_job(dir, "kiwipete", kKiwipete, 4);

    LoadedProblem lp = load_problem(kKiwipete, 1);
    std::string expected = divide_text(perft_divide(lp.root, 4, 1));

    MasterOptions options;
    options.stop_after_results = 20;
    ProblemCache cache;
    {
        Master m(job, options);
        while (auto item = m.next_item()) m.on_result(run_item(*item, cache));
        EXPECT_TRUE(m.stopped());
        EXPECT_FALSE(m.finished());
    }
    EXPECT_FALSE(fs::exists(dir / "out" / "kiwipete.perft"));
    EXPECT_THROW(Master(job, MasterOptions{}), InputError);  // a journal exists, no --resume

    MasterOptions resume;
    resume.resume = true;
    std::ostringstream summary;
    resume.summary = &summary;
    int searched = 0;
    {
        Master m(job, resume);
        while (auto item = m.next_item()) {
            ++searched;
            m.on_result(run_item(*item, cache));
        }
        EXPECT_TRUE(m.finished());
        EXPECT_EQ(m.exit_code(), 0);
    }
    EXPECT_GT(searched, 0);
    EXPECT_EQ(read_text(dir / "out" / "kiwipete.perft"), expected);
    EXPECT_NE(summary.str().find(R"("id":"kiwipete","status":"ok","nodes":4085603)"), std::string::npos);

    job.problems[0].depth = 3;  // another job: the journal does not fit
    EXPECT_THROW(Master(job, resume), InputError);
}

TEST(ClusterMaster, RepeatedMovesResumeToTheSameOutput) {
    fs::path dir = fresh_dir("master-mars");
    Job job = perft_job(dir, "mars", kKiwipeteMars, 3);

    LoadedProblem lp = load_problem(kKiwipeteMars, 1);
    std::string expected = divide_text(perft_divide(lp.root, 3, 1));

    MasterOptions options;
    options.stop_after_results = 10;
    ProblemCache cache;
    {
        Master m(job, options);
        while (auto item = m.next_item()) m.on_result(run_item(*item, cache));
        EXPECT_TRUE(m.stopped());
    }
    EXPECT_NE(read_text(job.journal).find(":o1"), std::string::npos);
    MasterOptions resume;
    resume.resume = true;
    {
        Master m(job, resume);
        while (auto item = m.next_item()) m.on_result(run_item(*item, cache));
        EXPECT_TRUE(m.finished());
    }
    EXPECT_EQ(read_text(dir / "out" / "mars.perft"), expected);
}
