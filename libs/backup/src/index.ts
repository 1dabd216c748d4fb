export { BACKUP_FORMAT_VERSION, BackupError, type BackupManifest, type BackupTable, type BackupSequence, type BackupMigration } from './backup-format';
export { writeBackup, type WriteBackupOptions, type WriteBackupResult } from './write-backup';
export { verifyBackup, restoreBackup, type RestoreBackupOptions, type RestoreBackupResult } from './restore-backup';
export { dependencyOrder } from './catalogue';
