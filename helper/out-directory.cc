#include "out-directory.h"

#include "option-values.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// dir without trailing slashes ("a/b/" -> "a/b"); not a whitespace trim (TrimSpace in
/// topologies/spec-string.h): a path keeps its spaces.
std::string
WithoutTrailingSlashes(const std::string& dir)
{
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/')
    {
        d.pop_back();
    }
    return d;
}

/// (parent, name) of a path ("a/b" -> ("a", "b"); "b" -> (".", "b")).
std::pair<std::string, std::string>
Split(const std::string& path)
{
    const std::string p = WithoutTrailingSlashes(path);
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos)
    {
        return {".", p};
    }
    return {slash == 0 ? "/" : p.substr(0, slash), p.substr(slash + 1)};
}

} // namespace

OutDirectory::OutDirectory(const std::string& dir)
    : m_dir(WithoutTrailingSlashes(dir))
{
    namespace fs = std::filesystem;
    const auto [parent, name] = Split(m_dir);
    std::error_code ec;
    if (fs::exists(m_dir, ec))
    {
        if (!fs::is_directory(m_dir, ec))
        {
            throw OptionError("--out: '" + dir +
                              "' exists and is not a directory; allowed: a directory path");
        }
        // A run replaces the whole directory: only an earlier result (or nothing) may go.
        if (!fs::is_empty(m_dir, ec) && !fs::exists(m_dir + "/summary.json", ec))
        {
            throw OptionError("--out: '" + dir +
                              "' holds files that are not a paramsync result (no summary.json), "
                              "which the run would replace; allowed: a new or empty directory, "
                              "or an earlier --out");
        }
    }
    const std::string lock = parent + "/." + name + ".lock";
    m_lockFd = open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (m_lockFd < 0)
    {
        throw OptionError("--out: cannot write in '" + parent + "' (" + std::strerror(errno) +
                          "); allowed: a directory in a writable parent");
    }
    if (flock(m_lockFd, LOCK_EX | LOCK_NB) != 0)
    {
        const int err = errno;
        close(m_lockFd);
        m_lockFd = -1;
        throw OptionError("--out: another run is writing '" + dir + "' (it holds " + lock +
                          (err == EWOULDBLOCK ? "" : std::string(": ") + std::strerror(err)) +
                          "); allowed: one run per --out directory at a time");
    }
    std::string tmpl = parent + "/." + name + ".tmp.XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr)
    {
        const int err = errno;
        close(m_lockFd);
        m_lockFd = -1;
        throw OptionError("--out: cannot create a directory in '" + parent + "' (" +
                          std::strerror(err) + "); allowed: a directory in a writable parent");
    }
    m_staging = tmpl;
}

OutDirectory::~OutDirectory()
{
    if (!m_committed && !m_staging.empty())
    {
        std::error_code ec;
        std::filesystem::remove_all(m_staging, ec);
    }
    if (m_lockFd >= 0)
    {
        close(m_lockFd); // releases the flock; the lock file stays (removing it would race)
    }
}

const std::string&
OutDirectory::Staging() const
{
    return m_staging;
}

bool
OutDirectory::Holds(const std::string& path) const
{
    return Split(path).first == m_dir;
}

void
OutDirectory::Commit()
{
    struct stat st;
    if (stat(m_dir.c_str(), &st) == 0)
    {
        // Swap the two directories in one step, then remove the old one.
        if (renameat2(AT_FDCWD, m_staging.c_str(), AT_FDCWD, m_dir.c_str(), RENAME_EXCHANGE) != 0)
        {
            throw std::runtime_error(m_dir + ": cannot put the results in place: " +
                                     std::strerror(errno) + " (they are in " + m_staging + ")");
        }
        m_committed = true;
        std::error_code ec;
        std::filesystem::remove_all(m_staging, ec);
        return;
    }
    if (std::rename(m_staging.c_str(), m_dir.c_str()) != 0)
    {
        throw std::runtime_error(m_dir + ": cannot put the results in place: " +
                                 std::strerror(errno) + " (they are in " + m_staging + ")");
    }
    m_committed = true;
}

} // namespace ns3
