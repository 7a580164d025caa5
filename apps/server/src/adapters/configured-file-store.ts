import path from 'node:path';
import { ConfigError, type Config } from '../config';
import { createFolderFileStore, type FileStore } from './file-store';
import { createS3FileStore } from './s3-file-store';

/** The store the configuration names: an S3-compatible bucket when S3_BUCKET is set. */
export function createFileStore(config: Config): FileStore {
  if (!config.S3_BUCKET) return createFolderFileStore(path.join(config.DATA_DIR, 'files'));
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError(
      'Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all',
    );
  }
  return createS3FileStore({
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  });
}
