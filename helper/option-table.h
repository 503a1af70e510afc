/*
 * OptionTable: one row per program option — name, help, default, and the parser that
 * validates its text (with units and range) into a typed value. From the one table come
 * the CommandLine registration (--help with defaults), the reading of the arguments (each
 * value whole; an empty or repeated option refused), the validation, and the record of
 * the values used (attributes.txt, summary.json).
 */
#ifndef PARAMSYNC_OPTION_TABLE_H
#define PARAMSYNC_OPTION_TABLE_H

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class CommandLine;

/**
 * \brief The rows of a program's options.
 */
class OptionTable
{
  public:
    /// \brief Validates the option's text into its typed value. \throws OptionError
    using Parser = std::function<void(const std::string& text)>;

    /// \brief One option.
    struct Row
    {
        std::string name;  //!< without the leading "--"
        std::string help;  //!< one sentence for --help
        std::string* text; //!< its text: the default until the command line gives one
        Parser parse;      //!< text -> typed value, range-checked
    };

    /// \brief Appends a row; text holds its default. Names are unique.
    void Add(const std::string& name, const std::string& help, std::string& text, Parser parse);

    /// \brief The row of name, or nullptr.
    const Row* Find(const std::string& name) const;

    /// \brief Every row, in the order added.
    const std::vector<Row>& Rows() const;

    /// \brief Registers every row on cmd, for ns-3's --help (name, help, default).
    void Register(CommandLine& cmd) const;

    /**
     * \brief Sets name's text to value, taken whole. \throws OptionError when value is
     * empty or name was already given (given holds the names set so far).
     */
    void Give(const std::string& name,
              const std::string& value,
              std::set<std::string>& given) const;

    /// \brief Runs every row's parser on its text, in the order added. \throws OptionError
    void ParseAll() const;

    /// \brief (name, text) of every row, as used.
    std::vector<std::pair<std::string, std::string>> Used() const;

  private:
    std::vector<Row> m_rows; //!< the options
};

} // namespace ns3

#endif // PARAMSYNC_OPTION_TABLE_H
