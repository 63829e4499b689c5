// Child process for the SIGKILL proof: one journalled move, killed by the parent mid-copy.
import { moveFile } from '../../fs/transfer.ts';
import { createTransferJournal } from '../transfer-journal.ts';

const [source, destination, journalDir] = process.argv.slice(2);
if (!source || !destination || !journalDir) throw new Error('usage: move-one.ts <source> <destination> <journal dir>');
await moveFile(source, destination, { journal: createTransferJournal(journalDir) });
