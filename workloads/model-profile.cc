/*
 * Profile rules (decided here, documented for users of custom CSVs):
 *  - the first non-comment line is exactly the header `tensor,params,bytes`;
 *  - lines starting with '#' and blank lines are ignored; CRLF line ends are accepted;
 *  - every row has exactly three fields: a non-empty tensor name (unique in the file),
 *    params > 0 and bytes > 0 as plain decimal integers;
 *  - bytes = params x element size with an element size of 1, 2, 4 or 8 bytes (int8, fp16 /
 *    bf16, fp32, fp64): anything else is a typo, not a data type;
 *  - a file with a NUL byte is binary and rejected; a file without rows is rejected.
 * "bytes:SIZE" is one synthetic tensor of SIZE bytes whose params count fp32 elements,
 * rounded up when SIZE is not a multiple of 4 (the byte count, which is what the network
 * carries, stays exact).
 */
#include "model-profile.h"

#include "ns3/spec-string.h"

#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

// Model CSVs relative to the directory holding the paramsync library (CMakeLists.txt
// defines both): the install layout (e.g. ../share/paramsync/models from lib/) and the
// build tree's copy beside the library.
#ifndef PARAMSYNC_MODELS_INSTALL_RELDIR
#define PARAMSYNC_MODELS_INSTALL_RELDIR "../share/paramsync/models"
#endif
#ifndef PARAMSYNC_MODELS_BUILD_RELDIR
#define PARAMSYNC_MODELS_BUILD_RELDIR "share/paramsync/models"
#endif

namespace ns3
{

namespace
{

/// Plain decimal integer > 0; throws naming where and the field.
uint64_t
ParseCount(const std::string& text, const std::string& field, const std::string& where)
{
    std::string t = TrimSpace(text);
    if (t.empty())
    {
        throw std::invalid_argument(where + ": missing " + field);
    }
    uint64_t value = 0;
    if (!ParseUint(t, value))
    {
        const bool digits = t.find_first_not_of("0123456789") == std::string::npos;
        throw std::invalid_argument(
            where + ": " + field + " '" + t + "' " +
            (digits ? "is too large" : "is not a positive decimal integer"));
    }
    if (value == 0)
    {
        throw std::invalid_argument(where + ": " + field + " must be > 0, got 0");
    }
    return value;
}

} // namespace

std::vector<std::string>
ModelProfile::BuiltInNames()
{
    return {"vgg16", "vgg19", "resnet50", "mnist-mlp"};
}

namespace
{

/// The fields of one CSV line as RFC 4180 writes them (ResultsWriter::CsvField): a field in
/// double quotes may hold commas, and "" inside it is one quote.
std::vector<std::string>
CsvFields(const std::string& line, const std::string& where)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i)
    {
        const char c = line[i];
        if (quoted)
        {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            {
                fields.back() += '"';
                ++i;
            }
            else if (c == '"')
            {
                quoted = false;
            }
            else
            {
                fields.back() += c;
            }
        }
        else if (c == '"' && TrimSpace(fields.back()).empty())
        {
            fields.back().clear();
            quoted = true;
        }
        else if (c == ',')
        {
            fields.emplace_back();
        }
        else
        {
            fields.back() += c;
        }
    }
    if (quoted)
    {
        throw std::invalid_argument(where + ": a quoted field is not closed; allowed: "
                                            "\"text\" with \"\" for a quote inside");
    }
    return fields;
}

} // namespace

ModelProfile
ModelProfile::Parse(const std::string& rawText, const std::string& name, const std::string& file)
{
    // Spreadsheets save CSV with a UTF-8 byte-order mark: not part of the header.
    const std::string bom = "\xEF\xBB\xBF";
    const std::string text = rawText.compare(0, bom.size(), bom) == 0 ? rawText.substr(bom.size())
                                                                      : rawText;
    CheckTextFile(text, file, "CSV model profile");
    ModelProfile profile;
    profile.m_name = name;
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    bool header = false;
    std::set<std::string> names;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::string t = TrimSpace(line);
        if (t.empty() || t[0] == '#')
        {
            continue;
        }
        std::string where = file + ":" + std::to_string(lineNo);
        std::vector<std::string> fields = CsvFields(t, where);
        if (!header)
        {
            if (fields.size() != 3 || TrimSpace(fields[0]) != "tensor" ||
                TrimSpace(fields[1]) != "params" || TrimSpace(fields[2]) != "bytes")
            {
                throw std::invalid_argument(
                    where + ": expected header 'tensor,params,bytes', got '" + t + "'");
            }
            header = true;
            continue;
        }
        if (fields.size() != 3)
        {
            throw std::invalid_argument(where + ": expected 3 fields tensor,params,bytes, got " +
                                        std::to_string(fields.size()));
        }
        GradientTensor tensor;
        tensor.name = TrimSpace(fields[0]);
        if (tensor.name.empty())
        {
            throw std::invalid_argument(where + ": missing tensor name");
        }
        if (!names.insert(tensor.name).second)
        {
            throw std::invalid_argument(where + ": duplicated tensor name '" + tensor.name + "'");
        }
        tensor.params = ParseCount(fields[1], "params", where);
        tensor.bytes = ParseCount(fields[2], "bytes", where);
        if (tensor.bytes % tensor.params != 0 ||
            std::set<uint64_t>{1, 2, 4, 8}.count(tensor.bytes / tensor.params) == 0)
        {
            throw std::invalid_argument(where + ": bytes " + std::to_string(tensor.bytes) +
                                        " is not 1, 2, 4 or 8 x params " +
                                        std::to_string(tensor.params));
        }
        tensor.offset = profile.m_totalBytes;
        profile.m_totalBytes += tensor.bytes;
        profile.m_totalParams += tensor.params;
        profile.m_tensors.push_back(std::move(tensor));
    }
    if (!header)
    {
        throw std::invalid_argument("model profile " + file +
                                    ": empty, expected header 'tensor,params,bytes' and rows");
    }
    if (profile.m_tensors.empty())
    {
        throw std::invalid_argument("model profile " + file + ": header but no tensor rows");
    }
    return profile;
}

std::string
ModelProfile::DefaultModelsDir()
{
    auto isDir = [](const std::string& path) {
        struct stat st;
        return !path.empty() && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    };
    if (const char* env = std::getenv("PARAMSYNC_MODELS_DIR"); env && *env)
    {
        return env;
    }
    // The file this function's code was loaded from: libparamsync.so wherever it lives.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&ModelProfile::DefaultModelsDir), &info) == 0 ||
        !info.dli_fname)
    {
        return "";
    }
    std::string lib(info.dli_fname);
    std::string libDir = lib.find('/') == std::string::npos ? "." : lib.substr(0, lib.rfind('/'));
    for (const char* rel : {PARAMSYNC_MODELS_INSTALL_RELDIR, PARAMSYNC_MODELS_BUILD_RELDIR})
    {
        std::string dir = libDir + "/" + rel;
        if (isDir(dir))
        {
            return dir;
        }
    }
    return "";
}

ModelProfile
ModelProfile::Load(const std::string& name, const std::string& modelsDirGiven)
{
    const std::string modelsDir = modelsDirGiven.empty() ? DefaultModelsDir() : modelsDirGiven;
    if (name.rfind("bytes:", 0) == 0)
    {
        uint64_t bytes = ParseBytes(name.substr(6), "--model '" + name + "'");
        ModelProfile profile;
        profile.m_name = name;
        profile.m_tensors.push_back({"synthetic", (bytes + 3) / 4, bytes, 0});
        profile.m_totalBytes = bytes;
        profile.m_totalParams = (bytes + 3) / 4;
        return profile;
    }
    std::string path;
    for (const std::string& builtIn : BuiltInNames())
    {
        if (name == builtIn)
        {
            if (modelsDir.empty())
            {
                throw std::invalid_argument(
                    "--model '" + name +
                    "': no models directory found; set PARAMSYNC_MODELS_DIR or --models-dir "
                    "to the directory of " +
                    name + ".csv");
            }
            path = modelsDir + "/" + name + ".csv";
        }
    }
    if (path.empty())
    {
        bool looksLikePath = name.find('/') != std::string::npos ||
                             (name.size() > 4 && name.substr(name.size() - 4) == ".csv");
        if (!looksLikePath)
        {
            std::string allowed;
            for (const std::string& builtIn : BuiltInNames())
            {
                allowed += builtIn + ", ";
            }
            throw std::invalid_argument("--model '" + name + "': unknown model; allowed: " +
                                        allowed + "a path to a .csv, or bytes:SIZE");
        }
        path = name;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::invalid_argument("--model '" + name + "': cannot open " + path);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return Parse(text.str(), name, path);
}

} // namespace ns3
