/*
 * OutDirectory: the --out directory of one driver invocation, made safe to trust. Checked
 * and locked before the run (an unwritable parent, a directory of other files or a second
 * run writing the same directory are refused while nothing has been simulated yet); the run
 * writes into a fresh hidden directory beside it, which then replaces the old one in one
 * rename (Linux renameat2 RENAME_EXCHANGE), so no file of an earlier run survives and a
 * reader sees the old directory or the new one, never a mix.
 */
#ifndef PARAMSYNC_OUT_DIRECTORY_H
#define PARAMSYNC_OUT_DIRECTORY_H

#include <string>

namespace ns3
{

/**
 * \brief A locked, fresh staging directory that becomes --out on Commit().
 */
class OutDirectory
{
  public:
    /**
     * \brief Checks dir, takes its lock (PARENT/.NAME.lock, flock) and creates the staging
     * directory. \throws OptionError naming --out: dir exists but is not a directory, holds
     * files that are not a paramsync result (no summary.json), its parent is not writable,
     * or another run holds the lock
     */
    explicit OutDirectory(const std::string& dir);
    /// \brief Removes the staging directory unless committed; releases the lock.
    ~OutDirectory();
    OutDirectory(const OutDirectory&) = delete;
    OutDirectory& operator=(const OutDirectory&) = delete;

    /// \brief Where the run's files go until Commit().
    const std::string& Staging() const;

    /// \brief Whether path names a file directly inside dir (e.g. --trace=DIR/trace.json).
    bool Holds(const std::string& path) const;

    /// \brief Puts the staging directory in dir's place and removes the old one.
    /// \throws std::runtime_error naming the path
    void Commit();

  private:
    std::string m_dir;     //!< --out as given
    std::string m_staging; //!< PARENT/.NAME.tmp.XXXXXX
    int m_lockFd{-1};      //!< the lock file, held until destruction
    bool m_committed{false};
};

} // namespace ns3

#endif // PARAMSYNC_OUT_DIRECTORY_H
