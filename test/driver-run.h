/*
 * Running the paramsync binary from a test, as a user runs it: its exit code, stdout and
 * stderr, and a number field of its JSON output. Shared by the driver's test suites.
 */
#ifndef PARAMSYNC_TEST_DRIVER_RUN_H
#define PARAMSYNC_TEST_DRIVER_RUN_H

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paramsync_test
{

/// \brief What one run of the binary gave.
struct Outcome
{
    int code;        ///< exit code (-1: killed by a signal)
    std::string out; ///< stdout
    std::string err; ///< stderr
};

/// \brief The whole content of a file ("" when it cannot be read).
inline std::string
Slurp(const std::string& path)
{
    std::ifstream f(path);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// \brief Whether a path exists.
inline bool
Exists(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

/// \brief Runs build/paramsync with args (a shell word list) and env (NAME=value words put
/// before the command); stdout and stderr go through per-process temporary files, removed
/// afterwards.
inline Outcome
RunParamsync(const std::string& args, const std::string& env = "")
{
    const std::string base = "/tmp/paramsync-test-run-" + std::to_string(getpid());
    const std::string cmd = (env.empty() ? "" : "env " + env + " ") +
                            std::string(PARAMSYNC_BINARY_DIR) + "/paramsync " + args + " >" + base +
                            ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    Outcome o{
        WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(base + ".out"), Slurp(base + ".err")};
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return o;
}

/// \brief A number field of a JSON line (the first one with that key); a test failure and
/// -1 when it is missing.
inline double
Field(const std::string& json, const std::string& key)
{
    std::smatch m;
    std::regex re("\"" + key + "\":(-?[0-9.eE+-]+)");
    if (!std::regex_search(json, m, re))
    {
        ADD_FAILURE() << key << " missing in " << json;
        return -1;
    }
    return std::stod(m[1]);
}

/// \brief A text field of a JSON line (the first one with that key); "" when missing.
inline std::string
TextField(const std::string& json, const std::string& key)
{
    const std::string open = "\"" + key + "\":\"";
    const size_t at = json.find(open);
    if (at == std::string::npos)
    {
        return "";
    }
    const size_t begin = at + open.size();
    return json.substr(begin, json.find('"', begin) - begin);
}

} // namespace paramsync_test

#endif // PARAMSYNC_TEST_DRIVER_RUN_H
