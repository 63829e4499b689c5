// Child process for the SIGKILL proofs: one journalled move (or, given `hardlink` or `copy`, a
// journalled copy that keeps its source), killed by the parent mid-copy.
import { keepAndPlace, moveFile } from '../../fs/transfer.ts';
import { createTransferJournal } from '../transfer-journal.ts';

const [source, destination, journalDir, mode] = process.argv.slice(2);
if (!source || !destination || !journalDir) throw new Error('usage: move-one.ts <source> <destination> <journal dir> [hardlink|copy]');
const journal = createTransferJournal(journalDir);
if (mode === 'hardlink' || mode === 'copy') await keepAndPlace(source, destination, mode, { journal });
else await moveFile(source, destination, { journal });
